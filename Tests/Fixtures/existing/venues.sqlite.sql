-- The conformance sample's venues (Tests/Fixtures/conformance/venues.json) as someone would
-- keep them in SQLite by hand: snake_case columns, a location table behind a foreign key, menu
-- items pointing back at their venue, tags and scores as JSON text. Rows are inserted by
-- Tests/SiftSQLTests/ExistingConformanceTests.swift; the schema file there names the columns
-- as the conformance cases do (priceCategory → price_category, menu → menu_item).
CREATE TABLE location (
  id INTEGER PRIMARY KEY,
  city TEXT,
  distance REAL,
  zip TEXT
);

CREATE TABLE venue (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  price_category TEXT,
  special_count INTEGER,
  distance REAL,
  tip_count INTEGER,
  favorite BOOLEAN,
  created_at INTEGER,
  rating REAL,
  phone TEXT,
  code TEXT,
  tags JSON,
  scores JSON,
  location_id INTEGER REFERENCES location (id)
);
CREATE INDEX venue_name_idx ON venue (name);
CREATE INDEX venue_location_idx ON venue (location_id);

CREATE TABLE menu_item (
  id INTEGER PRIMARY KEY,
  venue_id INTEGER NOT NULL REFERENCES venue (id),
  item TEXT,
  price REAL,
  vegan BOOLEAN
);
CREATE INDEX menu_item_venue_idx ON menu_item (venue_id);
