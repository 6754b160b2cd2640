-- A notes app's SQLite database, written by hand the way apps and ORMs make them (not by Sift):
-- snake_case names, nullable foreign keys, a self reference, two keys to one table, a join
-- table, a composite key, a foreign key without an _id suffix, dates as ISO-8601 text in three
-- shapes, REAL seconds and INTEGER milliseconds, a JSON array column, and a view.
-- Used by Tests/SiftSQLTests/IntrospectionTests.swift; the expected schema is asserted there.
PRAGMA journal_mode = DELETE;
PRAGMA foreign_keys = ON;

CREATE TABLE author (
  id INTEGER PRIMARY KEY,
  display_name TEXT NOT NULL,
  email VARCHAR(200) UNIQUE,
  is_active BOOLEAN NOT NULL DEFAULT 1,
  joined_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE category (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  parent_id INTEGER REFERENCES category (id)
);

CREATE TABLE note (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL,
  body TEXT,
  category_id INTEGER REFERENCES category (id) ON DELETE SET NULL,
  author_id INTEGER NOT NULL REFERENCES author (id),
  reviewer_id INTEGER REFERENCES author (id),
  created_at TIMESTAMP NOT NULL,
  due_on DATE,
  updated_at DATETIME,
  rating REAL,
  word_count INT,
  price NUMERIC(8, 2),
  attachment BLOB,
  labels JSON
);
CREATE INDEX note_title_idx ON note (title);
CREATE INDEX note_category_created_idx ON note (category_id, created_at);
CREATE INDEX note_lower_title_idx ON note (lower(title));

CREATE TABLE tag (
  id INTEGER PRIMARY KEY,
  label TEXT NOT NULL UNIQUE
);

CREATE TABLE note_tag (
  note_id INTEGER NOT NULL REFERENCES note (id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tag (id) ON DELETE CASCADE,
  PRIMARY KEY (note_id, tag_id)
);

CREATE TABLE note_revision (
  note_id INTEGER NOT NULL REFERENCES note (id),
  revision INTEGER NOT NULL,
  saved_at TIMESTAMP NOT NULL,
  PRIMARY KEY (note_id, revision)
);

CREATE TABLE comment (
  id INTEGER PRIMARY KEY,
  note INTEGER REFERENCES note (id),
  text TEXT NOT NULL,
  posted_at TIMESTAMP
);

CREATE VIEW recent_note AS
  SELECT n.id, n.title, n.created_at, c.name AS category_name, length(n.body) AS body_length
  FROM note AS n LEFT JOIN category AS c ON c.id = n.category_id
  WHERE n.created_at >= '2024-01-01';

INSERT INTO author (id, display_name, email, is_active, joined_at) VALUES
  (1, 'Ada', 'ada@example.com', 1, '2023-11-02 08:15:00'),
  (2, 'Grace', NULL, 1, '2023-12-24 17:00:00'),
  (3, 'Linus', 'linus@example.com', 0, '2024-01-09 09:00:00');

INSERT INTO category (id, name, parent_id) VALUES
  (1, 'work', NULL), (2, 'meetings', 1), (3, 'home', NULL);

INSERT INTO note (id, title, body, category_id, author_id, reviewer_id, created_at, due_on, updated_at, rating, word_count, price, attachment, labels) VALUES
  (1, 'Quarterly plan', 'Goals for Q1', 1, 1, 2, '2024-01-05T10:30:00Z', '2024-03-31', 1704450600000, 4.5, 3, 12.5, NULL, '["plan","q1"]'),
  (2, 'Standup notes', 'Daily', 2, 2, NULL, '2024-01-06T09:00:00Z', NULL, 1704531600000, NULL, 1, NULL, x'00ff', '["daily"]'),
  (3, 'Groceries', NULL, NULL, 1, 3, '2023-12-30T18:45:00Z', '2024-01-02', NULL, 3.0, NULL, 3, NULL, '[]'),
  (4, 'Café ideas', 'Crème brûlée', 3, 3, NULL, '2024-02-14T20:00:00Z', NULL, 1707940800000, NULL, 2, NULL, NULL, NULL);

INSERT INTO tag (id, label) VALUES (1, 'urgent'), (2, 'personal'), (3, 'someday');
INSERT INTO note_tag (note_id, tag_id) VALUES (1, 1), (2, 1), (3, 2), (4, 2), (4, 3);
INSERT INTO note_revision (note_id, revision, saved_at) VALUES (1, 1, 1704450600.0), (1, 2, 1704454200.5);
INSERT INTO comment (id, note, text, posted_at) VALUES
  (1, 1, 'Looks good', 1704537000.0), (2, 1, 'Add Q2?', 1704540600.25), (3, 4, 'Yum', NULL);
