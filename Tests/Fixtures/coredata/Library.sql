-- A Core Data store for "Library 2.xcdatamodel" (Library.xcdatamodeld), written by hand in the
-- layout Grammar/notes/coredata.md describes (section 1); not written by Core Data.
-- Entity numbers: roots by name, each followed by its descendants depth first (notes, 1):
--   1 Author, 2 Item (abstract), 3 Book, 4 Comic, 5 Novel, 6 Note, 7 Publisher, 8 Tag.
-- One table per root entity; Book/Comic/Novel rows live in ZITEM, told apart by Z_ENT.
-- Columns: Z + upper-cased property name; integers (and booleans, foreign keys, order keys)
-- first, then dates, then strings, as real stores list them. Dates: seconds since 2001-01-01.
-- Many-to-many: Z_<n><NAME> join tables with Z_<n of destination><NAME> columns (notes, 1).
-- Ordered relationships: Z_FOK_ order keys (sparse, only their order matters).
-- Index names follow the one real store that has them (larromba/EasyLife, notes section 3);
-- the fetch-index and uniqueness-index names are assumptions.

CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBORN TIMESTAMP, ZNAME VARCHAR );
CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINPRINT INTEGER, ZPAGES INTEGER, ZPUBLISHER INTEGER, Z_FOK_PUBLISHER INTEGER, ZCREATEDAT TIMESTAMP, ZTITLE VARCHAR, ZGENRE VARCHAR, ZILLUSTRATOR VARCHAR );
CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZITEM INTEGER, ZTEXT VARCHAR );
CREATE TABLE ZPUBLISHER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZITEMCOUNT INTEGER, ZNAME VARCHAR );
-- Book.authors (ordered) <-> Author.books: named after Author (1 < 3).
CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_3BOOKS INTEGER, Z_FOK_1AUTHORS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_3BOOKS) );
-- Item.tags <-> Tag.items: named after Item (2 < 8).
CREATE TABLE Z_2TAGS ( Z_2ITEMS INTEGER, Z_8TAGS INTEGER, PRIMARY KEY (Z_2ITEMS, Z_8TAGS) );
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);

CREATE INDEX ZITEM_ZPUBLISHER_INDEX ON ZITEM (ZPUBLISHER);
CREATE INDEX ZNOTE_ZITEM_INDEX ON ZNOTE (ZITEM);
CREATE INDEX Z_1BOOKS_Z_3BOOKS_INDEX ON Z_1BOOKS (Z_3BOOKS, Z_1AUTHORS);
CREATE INDEX Z_2TAGS_Z_8TAGS_INDEX ON Z_2TAGS (Z_8TAGS, Z_2ITEMS);
CREATE INDEX Z_Item_byTitle ON ZITEM (ZTITLE COLLATE BINARY ASC);
CREATE INDEX Z_Item_byCreatedAtTitle ON ZITEM (ZCREATEDAT COLLATE BINARY DESC, ZTITLE COLLATE BINARY ASC);
CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME);

-- Sub-entities keep Z_MAX 0; the root's counter hands out keys for its whole table.
INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 3);
INSERT INTO Z_PRIMARYKEY VALUES (2, 'Item', 0, 5);
INSERT INTO Z_PRIMARYKEY VALUES (3, 'Book', 2, 0);
INSERT INTO Z_PRIMARYKEY VALUES (4, 'Comic', 3, 0);
INSERT INTO Z_PRIMARYKEY VALUES (5, 'Novel', 3, 0);
INSERT INTO Z_PRIMARYKEY VALUES (6, 'Note', 0, 4);
INSERT INTO Z_PRIMARYKEY VALUES (7, 'Publisher', 0, 2);
INSERT INTO Z_PRIMARYKEY VALUES (8, 'Tag', 0, 3);
-- Z_PLIST (a binary property list) is left NULL: Sift does not read it.
INSERT INTO Z_METADATA VALUES (1, '3F2B6C1E-8D4A-4E27-9B51-0C7A9E2D4F18', NULL);

-- Authors: born 1948-04-28, 1960-11-10, unknown.
INSERT INTO ZAUTHOR VALUES (1, 1, 1, -1662422400, 'Terry Pratchett');
INSERT INTO ZAUTHOR VALUES (2, 1, 1, -1266796800, 'Neil Gaiman');
INSERT INTO ZAUTHOR VALUES (3, 1, 1, NULL, 'Anonymous');

INSERT INTO ZPUBLISHER VALUES (1, 7, 1, 'Gollancz');
INSERT INTO ZPUBLISHER VALUES (2, 7, 1, 'Empty Press');

-- Items: 1 Book, 2 Novel, 3 Novel, 4 Comic, 5 Book (everything optional nil).
-- createdAt: 2023-07-15 08:30, 2024-03-01 10:00, 1987-11-01 (a negative number), 2025-01-20 12:00 UTC.
INSERT INTO ZITEM VALUES (1, 3, 2, 1, 300, 1, 1024, 711102600, 'Reference Manual', NULL, NULL);
INSERT INTO ZITEM VALUES (2, 5, 1, 1, 288, 1, 2048, 730980000, 'Good Omens', 'Fantasy', NULL);
INSERT INTO ZITEM VALUES (3, 5, 3, 0, 243, 1, 3072, -415584000, 'Mort', 'fantasy', NULL);
INSERT INTO ZITEM VALUES (4, 4, 1, 1, 200, NULL, NULL, 759067200, 'The Sandman', NULL, 'Sam Kieth');
INSERT INTO ZITEM VALUES (5, 3, 1, NULL, NULL, NULL, NULL, NULL, 'Untitled', NULL, NULL);

-- Good Omens: Gaiman, then Pratchett; Mort: Pratchett; The Sandman: Gaiman.
INSERT INTO Z_1BOOKS VALUES (2, 2, 1024);
INSERT INTO Z_1BOOKS VALUES (1, 2, 2048);
INSERT INTO Z_1BOOKS VALUES (1, 3, 1024);
INSERT INTO Z_1BOOKS VALUES (2, 4, 1024);

INSERT INTO ZTAG VALUES (1, 8, 1, 3, 'fantasy');
INSERT INTO ZTAG VALUES (2, 8, 1, 1, 'classic');
INSERT INTO ZTAG VALUES (3, 8, 1, 0, 'unused');
INSERT INTO Z_2TAGS VALUES (2, 1);
INSERT INTO Z_2TAGS VALUES (3, 1);
INSERT INTO Z_2TAGS VALUES (3, 2);
INSERT INTO Z_2TAGS VALUES (4, 1);

INSERT INTO ZNOTE VALUES (1, 6, 1, 3, 'signed copy');
INSERT INTO ZNOTE VALUES (2, 6, 1, 3, 'first edition');
INSERT INTO ZNOTE VALUES (3, 6, 1, NULL, 'loose note');
INSERT INTO ZNOTE VALUES (4, 6, 1, 1, 'coffee stain');
