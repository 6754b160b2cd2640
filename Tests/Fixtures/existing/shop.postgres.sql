-- A shop's PostgreSQL schema, written by hand (not by Sift): uuid and text keys, timestamptz,
-- timestamp and date, numeric money, native arrays, jsonb (an array and an object), an enum, an
-- interval, a nullable foreign key, a table named by a reserved word, a join table, a
-- composite key, an expression index and a view. Run in an empty schema (search_path first);
-- asserted by Tests/SiftSQLTests/IntrospectionTests.swift.
CREATE TYPE order_status AS ENUM ('open', 'paid', 'shipped');

CREATE TABLE customer (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  display_name varchar(100),
  is_vip boolean NOT NULL DEFAULT false,
  signed_up_at timestamptz NOT NULL,
  birthday date,
  tags text[] NOT NULL DEFAULT '{}',
  preferences jsonb
);
CREATE INDEX customer_lower_email_idx ON customer (lower(email));

CREATE TABLE category (
  id serial PRIMARY KEY,
  name text NOT NULL
);

CREATE TABLE product (
  sku text PRIMARY KEY,
  title text NOT NULL,
  price numeric(10, 2) NOT NULL,
  weight_kg double precision,
  stock integer NOT NULL,
  ratings integer[],
  dimensions double precision[],
  keywords jsonb,
  created_at timestamp without time zone,
  image bytea
);

CREATE TABLE "order" (
  id bigserial PRIMARY KEY,
  customer_id uuid REFERENCES customer (id),
  status order_status NOT NULL DEFAULT 'open',
  placed_at timestamptz NOT NULL,
  total numeric NOT NULL,
  delivery_window interval
);
CREATE INDEX order_placed_idx ON "order" (placed_at);

CREATE TABLE order_line (
  order_id bigint NOT NULL REFERENCES "order" (id),
  line_no integer NOT NULL,
  product_sku text NOT NULL REFERENCES product (sku),
  quantity smallint NOT NULL,
  PRIMARY KEY (order_id, line_no)
);

CREATE TABLE product_category (
  product_sku text NOT NULL REFERENCES product (sku),
  category_id integer NOT NULL REFERENCES category (id),
  PRIMARY KEY (product_sku, category_id)
);

CREATE VIEW vip_customer AS SELECT id, email, signed_up_at FROM customer WHERE is_vip;

INSERT INTO customer VALUES
  ('7d3f0c2e-0000-4000-8000-000000000001', 'ada@example.com', 'Ada', true, '2024-01-05 10:30:00+00', '1990-12-10', '{early,beta}', '{"theme": "dark"}'),
  ('7d3f0c2e-0000-4000-8000-000000000002', 'bob@example.com', NULL, false, '2024-02-01 08:00:00+01', NULL, '{}', NULL);
INSERT INTO category (name) VALUES ('tools'), ('garden');
INSERT INTO product VALUES
  ('HAM-1', 'Hammer', 12.50, 0.8, 10, '{5,4}', '{30.0,12.5,3.0}', '["steel", "tool"]', '2023-06-01 12:00:00', NULL),
  ('SEED-7', 'Tomato seeds', 2.99, NULL, 250, NULL, NULL, '["garden"]', NULL, '\x00ff');
INSERT INTO "order" (customer_id, status, placed_at, total) VALUES
  ('7d3f0c2e-0000-4000-8000-000000000001', 'paid', '2024-03-01 09:30:00+00', 15.49),
  (NULL, 'open', '2024-03-02 11:00:00+00', 2.99);
INSERT INTO order_line VALUES (1, 1, 'HAM-1', 1), (1, 2, 'SEED-7', 1), (2, 1, 'SEED-7', 1);
INSERT INTO product_category VALUES ('HAM-1', 1), ('SEED-7', 2);
