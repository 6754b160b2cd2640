-- A shop's MySQL/MariaDB database, written by hand (not by Sift): text keys under the server's
-- default (case-insensitive) collation, DECIMAL money, DATETIME and TIMESTAMP, TINYINT(1)
-- booleans, JSON, a nullable foreign key, a table named by a reserved word, a join table, a
-- composite key and a view. Run in an empty database; used by
-- Tests/SiftCLITests/MySQLCLITests.swift and the commands in SiftSQL.docc/ExistingDatabases.md.
CREATE TABLE customer (
  id INT PRIMARY KEY,
  email VARCHAR(100) NOT NULL UNIQUE,
  display_name VARCHAR(100),
  is_vip TINYINT(1) NOT NULL DEFAULT 0,
  signed_up_at TIMESTAMP NOT NULL,
  preferences JSON
);

CREATE TABLE category (
  id INT AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(40) NOT NULL
);

CREATE TABLE product (
  sku VARCHAR(20) PRIMARY KEY,
  title VARCHAR(100) NOT NULL,
  price DECIMAL(10, 2) NOT NULL,
  weight_kg DOUBLE,
  stock INT NOT NULL,
  created_at DATETIME(6),
  KEY product_price_idx (price)
);

CREATE TABLE `order` (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  customer_id INT REFERENCES customer (id),
  placed_at DATETIME NOT NULL,
  total DECIMAL(10, 2) NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customer (id),
  KEY order_placed_idx (placed_at)
);

CREATE TABLE order_line (
  order_id BIGINT NOT NULL,
  line_no INT NOT NULL,
  product_sku VARCHAR(20) NOT NULL,
  quantity SMALLINT NOT NULL,
  PRIMARY KEY (order_id, line_no),
  FOREIGN KEY (order_id) REFERENCES `order` (id),
  FOREIGN KEY (product_sku) REFERENCES product (sku)
);

CREATE TABLE product_category (
  product_sku VARCHAR(20) NOT NULL,
  category_id INT NOT NULL,
  PRIMARY KEY (product_sku, category_id),
  FOREIGN KEY (product_sku) REFERENCES product (sku),
  FOREIGN KEY (category_id) REFERENCES category (id)
);

CREATE VIEW vip_customer AS SELECT id, email, signed_up_at FROM customer WHERE is_vip;

INSERT INTO customer VALUES
  (1, 'ada@example.com', 'Ada', 1, '2024-01-05 10:30:00', '{"theme": "dark"}'),
  (2, 'bob@example.com', NULL, 0, '2024-02-01 07:00:00', NULL);
INSERT INTO category (name) VALUES ('tools'), ('garden');
INSERT INTO product VALUES
  ('HAM-1', 'Hammer', 12.50, 0.8, 10, '2023-06-01 12:00:00'),
  ('SEED-7', 'Tomato seeds', 2.99, NULL, 250, NULL);
INSERT INTO `order` (customer_id, placed_at, total) VALUES (1, '2024-03-01 09:30:00', 15.49), (NULL, '2024-03-02 11:00:00', 2.99);
INSERT INTO order_line VALUES (1, 1, 'HAM-1', 1), (1, 2, 'SEED-7', 1), (2, 1, 'SEED-7', 1);
INSERT INTO product_category VALUES ('HAM-1', 1), ('SEED-7', 2);
