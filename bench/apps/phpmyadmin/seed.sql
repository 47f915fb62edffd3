-- The bench's database for the phpMyAdmin workload (bench/workloads/phpmyadmin.json), loaded
-- by the bench (bench/src/apps.rs) into a MariaDB server of the run's own as its root user.
-- phpMyAdmin logs in as `bench` / `secret123`, who may do anything in `shop` and nothing else.
CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY 'secret123';
GRANT ALL PRIVILEGES ON shop.* TO 'bench'@'127.0.0.1';
USE shop;
CREATE TABLE products (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(80) NOT NULL,
  price DECIMAL(8,2) NOT NULL,
  stock INT NOT NULL,
  notes TEXT
) ENGINE=InnoDB;
INSERT INTO products (name, price, stock, notes) VALUES
  ('Anchor', 4.50, 7, 'Galvanised, hangs on the bow rail.'),
  ('Barometer', 6.00, 14, 'Brass case, reads a little high.'),
  ('Compass', 7.50, 21, 'Liquid-filled, needs a new gimbal.'),
  ('Deck brush', 9.00, 28, 'Stiff bristles, long ash handle.'),
  ('Easel', 10.50, 35, 'Folds flat, one leg is loose.'),
  ('Fishing net', 12.00, 2, 'Green mesh, mended twice.'),
  ('Globe', 13.50, 9, 'Paper on plaster, a dent over Peru.'),
  ('Hammock', 15.00, 16, 'Canvas, sleeps one.'),
  ('Inkwell', 16.50, 23, 'Pewter lid, dry inside.'),
  ('Jigsaw', 18.00, 30, 'A harbour scene, two pieces missing.'),
  ('Kettle', 19.50, 37, 'Enamel, whistles when it boils.'),
  ('Lantern', 21.00, 4, 'Paraffin, the glass is smoked.'),
  ('Map case', 22.50, 11, 'Leather tube with a shoulder strap.'),
  ('Notebook', 24.00, 18, 'Waterproof pages, half used.'),
  ('Oar', 25.50, 25, 'Spruce, the blade is chipped.'),
  ('Paddle', 27.00, 32, 'Plastic, for the dinghy.'),
  ('Quill', 28.50, 39, 'Goose feather, freshly cut.'),
  ('Rope', 30.00, 6, 'Hemp, thirty metres.'),
  ('Sextant', 31.50, 13, 'Boxed, with its certificate.'),
  ('Telescope', 33.00, 20, 'Three draws, brass.'),
  ('Umbrella', 34.50, 27, 'Black, one rib bent.'),
  ('Valve', 36.00, 34, 'Bronze gate valve, seized.'),
  ('Whistle', 37.50, 1, 'Tin, loud enough for fog.'),
  ('Xylophone', 39.00, 8, 'Toy, for the children''s cabin.'),
  ('Yardstick', 40.50, 15, 'Marked in inches on one side.'),
  ('Zither', 42.00, 22, 'Needs three new strings.'),
  ('Buoy', 43.50, 29, 'Red, slightly faded.'),
  ('Chart table', 45.00, 36, 'Oak top with a brass rail.'),
  ('Dinghy', 46.50, 3, 'Clinker built, sleeps nobody.'),
  ('Ensign', 48.00, 10, 'Wool bunting, frayed at the fly.');
