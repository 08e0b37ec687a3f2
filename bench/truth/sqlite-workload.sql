-- ActiveTime bench/truth: a deterministic SQL workload for `sqlite3 :memory:`.
-- Tables filled by recursive CTEs with an integer hash (no random()), then
-- indexes, joins, GROUP BY, LIKE, UPDATE and DELETE; every query prints a
-- small aggregate so the instrumented builds can be checked against plain.
-- The row count in `n` sets the run time (~0.4 s on the plain -O2 build).

CREATE TABLE n(v INTEGER);
INSERT INTO n VALUES (30000);

CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, city TEXT, tier INTEGER);
CREATE TABLE orders(id INTEGER PRIMARY KEY, cust INTEGER, amount INTEGER,
                    day INTEGER, note TEXT);

WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c
                        WHERE i < (SELECT v FROM n) / 10)
INSERT INTO customer
SELECT i, 'cust-' || ((i * 7919) % 100003), 'city' || ((i * 31) % 97), i % 5 FROM c;

WITH RECURSIVE o(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM o
                        WHERE i < (SELECT v FROM n) * 4)
INSERT INTO orders
SELECT i, 1 + (i * 2654435761) % ((SELECT v FROM n) / 10), (i * 40503) % 10007,
       (i * 17) % 365,
       CASE (i % 4) WHEN 0 THEN 'rush order ' || i WHEN 1 THEN 'gift ' || (i % 13)
                    WHEN 2 THEN 'standard' ELSE 'back-order rush ' || (i % 101) END
FROM o;

SELECT 'rows', (SELECT count(*) FROM customer), (SELECT count(*) FROM orders);

-- Aggregates without an index (full scans, sorter for GROUP BY).
SELECT 'by_day', count(*), sum(s) FROM
  (SELECT day, sum(amount) AS s FROM orders GROUP BY day);
SELECT 'like', count(*), sum(amount) FROM orders WHERE note LIKE '%rush%';

CREATE INDEX orders_cust ON orders(cust);
CREATE INDEX orders_day_amount ON orders(day, amount);
CREATE INDEX customer_city ON customer(city, tier);

-- Joins through the indexes.
SELECT 'join_city', count(*), sum(t) FROM
  (SELECT c.city, sum(o.amount) AS t FROM customer c JOIN orders o ON o.cust = c.id
   GROUP BY c.city);
SELECT 'top_tier', count(*), max(t) FROM
  (SELECT c.id, count(o.id) AS t FROM customer c JOIN orders o ON o.cust = c.id
   WHERE c.tier = 3 GROUP BY c.id HAVING count(o.id) > 2);
SELECT 'range', count(*), sum(amount) FROM orders WHERE day BETWEEN 100 AND 140
  AND amount > 5000;
SELECT 'distinct', count(DISTINCT cust), count(DISTINCT note) FROM orders;
SELECT 'order_by', sum(x) FROM
  (SELECT amount * 3 + day AS x FROM orders ORDER BY note, amount DESC LIMIT 5000);

-- Updates and deletes, then the aggregates again.
UPDATE orders SET amount = amount + 1, note = note || '!' WHERE day % 7 = 0;
UPDATE customer SET tier = (tier + 1) % 5 WHERE name LIKE 'cust-1%';
DELETE FROM orders WHERE amount % 11 = 0;
DELETE FROM customer WHERE id % 97 = 0;
SELECT 'after', count(*), sum(amount), sum(length(note)) FROM orders;
SELECT 'orphans', count(*) FROM orders o LEFT JOIN customer c ON o.cust = c.id
  WHERE c.id IS NULL;
SELECT 'tiers', group_concat(t, ',') FROM
  (SELECT tier || ':' || count(*) AS t FROM customer GROUP BY tier ORDER BY tier);
