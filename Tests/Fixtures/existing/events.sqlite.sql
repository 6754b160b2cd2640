-- Hand-written (not by Sift): one event table holding every date encoding and array storage
-- Sift reads from databases it did not create, with the same objects as events.json (memory)
-- and events.postgres.sql. Used by Tests/SiftSQLTests/ExistingDifferentialTests.swift.
-- Dates: REAL and INTEGER seconds since 1970, REAL seconds since 2001, INTEGER milliseconds,
-- ISO-8601 text (whole, fractional and .000 spellings mixed), SQLite datetime text (minutes,
-- seconds, fractions), ISO dates; arrays as JSON text.
CREATE TABLE venue (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE event (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  venue_id INTEGER REFERENCES venue (id),
  at_unix REAL,
  at_unix_int INTEGER,
  at_2001 REAL,
  at_ms INTEGER,
  at_iso TEXT,
  at_sqlite DATETIME,
  on_day DATE,
  at_tz TIMESTAMP,
  at_ts DATETIME,
  tags JSON,
  scores JSON,
  weights JSON,
  jtags TEXT,
  price NUMERIC(10, 2),
  flag BOOLEAN,
  code TEXT,
  blob BLOB
);
CREATE TABLE ticket (id INTEGER PRIMARY KEY, event_id INTEGER REFERENCES event (id), seat TEXT NOT NULL);
CREATE TABLE performer (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE event_performer (event_id INTEGER NOT NULL REFERENCES event (id), performer_id INTEGER NOT NULL REFERENCES performer (id),
  PRIMARY KEY (event_id, performer_id));
INSERT INTO venue (id, name) VALUES (1, 'Hall'), (2, 'Club');
INSERT INTO event (id, title, venue_id, at_unix, at_unix_int, at_2001, at_ms, at_iso, at_sqlite, on_day, at_tz, at_ts, tags, scores, weights, jtags, price, flag, code, blob) VALUES
  (1, 'Launch', 1, 1704450600.0, 1704450600, 726143400.0, 1704450600000, '2024-01-05T10:30:00Z', '2024-01-05 10:30', '2024-01-05', '2024-01-05T10:30:00Z', '2024-01-05 10:30:00', '["a", "b"]', '[5, 3]', '[1.5, 2.25]', '["a", "b"]', 12.5, 1, '7d3f0c2e-0000-4000-8000-000000000001', x'00ff'),
  (2, 'Standup', 1, 1704531600.25, 1704531600, 726224400.25, 1704531600250, '2024-01-06T09:00:00.250Z', '2024-01-06 09:00:00.250', '2024-01-06', '2024-01-06T09:00:00.250Z', '2024-01-06 09:00:00.250', '["b"]', '[10]', '[0.5]', '["b"]', 19.99, 0, '7d3f0c2e-0000-4000-8000-000000000002', NULL),
  (3, 'Review', 2, 1703961900.0, 1703961900, 725654700.0, 1703961900000, '2023-12-30T18:45:00.000Z', '2023-12-30 18:45:00.000', '2023-12-30', '2023-12-30T18:45:00Z', '2023-12-30 18:45:00', '[]', '[]', '[]', '[]', 0.1, NULL, NULL, NULL),
  (4, 'Party', NULL, 1707868800.0, 1707868800, 729561600.0, 1707868800000, '2024-02-14T00:00:00Z', '2024-02-14 00:00:00', '2024-02-14', '2024-02-14T00:00:00Z', '2024-02-14 00:00:00', NULL, NULL, NULL, NULL, NULL, 1, '7d3f0c2e-0000-4000-8000-0000000000ff', NULL),
  (5, 'Café', 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '["c", "a", "c"]', '[1, 2, 3]', '[3.0, 1.0]', '["c", "a", "c"]', 3.0, 0, '7d3f0c2e-0000-4000-8000-000000000005', NULL),
  (6, 'Old', 1, 959860800.0, 959860800, -18446400.0, 959860800000, '2000-06-01T12:00:00Z', '2000-06-01 12:00:00', '2000-06-01', '2000-06-01T12:00:00Z', '2000-06-01 12:00:00', '["Ä"]', '[-4]', '[-2.5]', '["Ä"]', 100.25, NULL, NULL, NULL),
  (7, 'Standup 2', NULL, 1704531600.0, 1704531600, 726224400.0, 1704531600000, '2024-01-06T09:00:00Z', '2024-01-06 09:00:00', '2024-01-06', '2024-01-06T09:00:00Z', '2024-01-06 09:00:00', NULL, '[7, 7]', '[10.0]', NULL, 19.99, 1, '7d3f0c2e-0000-4000-8000-000000000007', NULL);
INSERT INTO ticket (id, event_id, seat) VALUES (1, 1, 'A1'), (2, 1, 'A2'), (3, 2, 'B1'), (4, 5, 'C1');
INSERT INTO performer (id, name) VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');
INSERT INTO event_performer (event_id, performer_id) VALUES (1, 1), (1, 2), (2, 2), (5, 1), (6, 3);
-- A user's case-insensitive index: BEGINSWITH[c] of a constant uses it where exact (sql.md).
CREATE INDEX event_title_nocase ON event (title COLLATE NOCASE);
