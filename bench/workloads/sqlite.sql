-- The sqlite3 workload: @ROWS@ rows generated in SQL, indexed, queried,
-- updated and deleted, in memory.  No random(): the output must be the
-- same in every run.
PRAGMA cache_size = -65536;
CREATE TABLE item (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, s TEXT, f REAL);
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < @ROWS@)
INSERT INTO item
  SELECT x, (x * 7919) % 100003, (x * 104729) % 1009,
         printf('item-%07d-%s', (x * 31337) % 999983, substr('abcdefghij', x % 10 + 1, 3)),
         (x % 1000) / 7.0
  FROM n;
CREATE INDEX item_a ON item (a);
CREATE INDEX item_s ON item (s);
CREATE TABLE tag (b INTEGER PRIMARY KEY, name TEXT);
WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 1008)
INSERT INTO tag SELECT x, printf('tag%04d', (x * 37) % 1009) FROM n;
SELECT count(*), sum(a), sum(b), min(s), max(s), round(sum(f), 3) FROM item;
SELECT b % 10, count(*), round(avg(a), 3), max(s) FROM item GROUP BY b % 10 ORDER BY 1;
SELECT count(*), sum(item.a % 13) FROM item JOIN tag USING (b) WHERE tag.name < 'tag0500';
SELECT count(*) FROM item WHERE s LIKE '%-abc' OR s GLOB '*5?3*';
SELECT count(*), sum(a) FROM item WHERE a BETWEEN 20000 AND 60000;
UPDATE item SET b = (b + 7) % 1009, s = upper(s) WHERE a % 3 = 0;
DELETE FROM item WHERE id % 5 = 0;
SELECT count(*), sum(b), max(s) FROM item;
SELECT name, count(*) AS c FROM item JOIN tag USING (b) GROUP BY name ORDER BY c DESC, name LIMIT 5;
SELECT id, a, s FROM item ORDER BY s DESC, id LIMIT 5;
SELECT count(DISTINCT a % 1000), count(DISTINCT substr(s, 6, 4)) FROM item;
WITH RECURSIVE fib(i, x, y) AS (SELECT 1, 0, 1 UNION ALL SELECT i + 1, y, (x + y) % 1000000007 FROM fib WHERE i < @ROWS@)
SELECT max(i), sum(x) % 1000000007 FROM fib;
