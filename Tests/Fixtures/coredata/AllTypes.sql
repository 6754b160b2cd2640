-- A Core Data store for AllTypes.xcdatamodel (entity Sample = 1), hand-written in the layout of
-- Grammar/notes/coredata.md (section 1); not written by Core Data. Columns by storage group
-- (integers and booleans, then real-like, then strings, then blobs), as real stores order them.
-- Declared types for Decimal (DECIMAL), URI (VARCHAR) and UUID (BLOB, 16 bytes) are assumptions
-- (notes, section 4). The transient attribute has no column; the derived one (shout,
-- uppercase:(string)) has ZSHOUT, holding what Core Data computes on save.
-- Rows: 1 every attribute set; 2 every optional attribute nil; 3 edge values (negative, zero,
-- a date before 2001, an empty string and empty data).

CREATE TABLE ZSAMPLE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOLEAN INTEGER, ZINT16 INTEGER, ZINT32 INTEGER, ZINT64 INTEGER, ZDATE TIMESTAMP, ZDECIMAL DECIMAL, ZDOUBLE FLOAT, ZFLOAT FLOAT, ZSHOUT VARCHAR, ZSTRING VARCHAR, ZURI VARCHAR, ZBINARY BLOB, ZTRANSFORMABLE BLOB, ZUUID BLOB );
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
CREATE INDEX ZSAMPLE_ZINT64_INDEX ON ZSAMPLE (ZINT64);
INSERT INTO Z_PRIMARYKEY VALUES (1, 'Sample', 0, 3);
INSERT INTO Z_METADATA VALUES (1, '0B6F3D2E-5A1C-4E8B-9F07-3C2A1D4E5B69', NULL);

-- date 1: 2024-03-01 10:00:00 UTC = 730980000 s since 2001, with a fraction.
INSERT INTO ZSAMPLE VALUES (1, 1, 1, 1, 7, 70000, 7000000000, 730980000.25, 2.5, 3.14159, 0.5, 'ÜNÏCODE OK', 'Ünïcode ok', 'https://example.com/a', X'DEADBEEF', X'62706C6973743030', X'0123456789ABCDEF0123456789ABCDEF');
INSERT INTO ZSAMPLE VALUES (2, 1, 1, 0, NULL, NULL, 0, NULL, NULL, 0.0, NULL, 'NONE', 'none', NULL, NULL, NULL, NULL);
-- date 3: 1999-12-31 00:00:00 UTC = -86400 s.
INSERT INTO ZSAMPLE VALUES (3, 1, 2, 1, -32768, -2147483648, -9223372036854775808, -86400, -0.001, -1e300, -1.0, '', '', 'file:///tmp/x', X'', NULL, X'00000000000000000000000000000000');
