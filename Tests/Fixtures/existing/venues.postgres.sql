-- The conformance sample's venues in PostgreSQL, by hand: snake_case columns, native boolean,
-- text[] and integer[] arrays, a location table behind a foreign key, menu items pointing back
-- at their venue. Rows are inserted by Tests/SiftSQLTests/ExistingConformanceTests.swift.
CREATE TABLE location (
  id integer PRIMARY KEY,
  city text,
  distance double precision,
  zip text
);

CREATE TABLE venue (
  id integer PRIMARY KEY,
  name text NOT NULL,
  price_category text,
  special_count integer,
  distance double precision,
  tip_count integer,
  favorite boolean,
  created_at bigint,
  rating double precision,
  phone varchar(20),
  code text,
  tags text[],
  scores integer[],
  location_id integer REFERENCES location (id)
);
CREATE INDEX venue_name_idx ON venue (name);

CREATE TABLE menu_item (
  id serial PRIMARY KEY,
  venue_id integer NOT NULL REFERENCES venue (id),
  item text,
  price double precision,
  vegan boolean
);
CREATE INDEX menu_item_venue_idx ON menu_item (venue_id);
