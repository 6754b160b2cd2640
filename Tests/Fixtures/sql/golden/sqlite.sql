-- Golden SQL for sqlite. Re-record: RECORD_GOLDEN=1 swift test --filter SQLGoldenTests

-- name == %@  args: "Red bar"
t0."name" = ?
-- bindings: ['Red bar']

-- priceCategory != '$'
t0."priceCategory" IS NOT ?
-- bindings: ['$']

-- NOT (rating > 4.5)
(t0."rating" > ?) IS NOT TRUE
-- bindings: [4.5]

-- rating == nil OR rating <= 1
(t0."rating" IS NULL OR t0."rating" <= ?)
-- bindings: [1]

-- specialCount IN {1, 3, nil}
(t0."specialCount" IN (?, ?) OR t0."specialCount" IS NULL)
-- bindings: [1, 3]

-- specialCount IN {}
1 = 0
-- bindings: []

-- id IN %@  args: [1, 2, 3]
t0."id" IN (?, ?, ?)
-- bindings: [1, 2, 3]

-- distance BETWEEN {1, 2}
(t0."distance" >= ? AND t0."distance" <= ?)
-- bindings: [1, 2]

-- favorite == YES
t0."favorite" = ?
-- bindings: [1]

-- favorite == 1 AND specialCount == TRUE
(t0."favorite" = ? AND t0."specialCount" = ?)
-- bindings: [1, 1]

-- name BEGINSWITH 'Blue'
(t0."name" >= ? AND t0."name" < ?)
-- bindings: ['Blue', 'Bluf']

-- name BEGINSWITH[cd] 'blue'
(sift_fold(t0."name", 3) >= ? AND sift_fold(t0."name", 3) < ?)
-- bindings: ['blue', 'bluf']

-- name ENDSWITH 'Café'
sift_search(t0."name", ?, 2, 0)
-- bindings: ['Café']

-- name CONTAINS %@  args: "50%_off\\"
instr(t0."name", ?) > 0
-- bindings: ['50%_off\']

-- name LIKE[c] '*bar?'
sift_like(t0."name", ?, 1)
-- bindings: ['*bar?']

-- name MATCHES '(Blue|Red) .*'
t0."name" REGEXP ?
-- bindings: ['(Blue|Red) .*']

-- name MATCHES[cd] 'cafe.*'
sift_matches(t0."name", ?, 3)
-- bindings: ['cafe.*']

-- name ==[cd] 'zurich'
sift_fold(t0."name", 3) = ?
-- bindings: ['zurich']

-- name < 'C'
t0."name" < ?
-- bindings: ['C']

-- location.city ==[c] 'berlin'
sift_fold((SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id"), 1) = ?
-- bindings: ['berlin']

-- location == nil
t0."location_id" IS NULL
-- bindings: []

-- ANY tags == 'wifi'
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = ?))
-- bindings: ['wifi']

-- ALL scores > 50
NOT EXISTS (SELECT 1 FROM "venue__scores" t1 WHERE (t1."owner" = t0."id" AND (t1."value" > ?) IS NOT TRUE))
-- bindings: [50]

-- NONE menu.price > 30
NOT EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND t1."price" > ?))
-- bindings: [30]

-- tags.@count > 2
t0."__sift_count_tags" > ?
-- bindings: [2]

-- menu.@avg.price > 30
CASE WHEN t0."__sift_count_menu" IS NULL THEN NULL ELSE (SELECT sift_avg(CAST(t1."price" AS REAL)) FROM "menu_item" t1 WHERE t1."venue_id" = t0."id") END > ?
-- bindings: [30]

-- scores.@sum > 300
CASE WHEN t0."__sift_count_scores" IS NULL THEN NULL ELSE (SELECT COALESCE(sift_sum(t1."value"), 0) FROM "venue__scores" t1 WHERE t1."owner" = t0."id") END > ?
-- bindings: [300]

-- SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0
(SELECT COUNT(*) FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND (t1."vegan" = ? AND t1."price" < ?))) > ?
-- bindings: [1, 10, 0]

-- tags[FIRST] == 'vegan'
(SELECT t1."value" FROM "venue__tags" t1 WHERE t1."owner" = t0."id" ORDER BY t1."position" ASC LIMIT 1) = ?
-- bindings: ['vegan']

-- 'wifi' IN tags
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = ?))
-- bindings: ['wifi']

-- tipCount / 10 > specialCount
sift_div(t0."tipCount", ?) > t0."specialCount"
-- bindings: [10]

-- specialCount ** 2 == 16
sift_pow(t0."specialCount", ?) = ?
-- bindings: [2, 16]

-- TERNARY(favorite == YES, specialCount, 0) > 7
CASE WHEN t0."favorite" = ? THEN t0."specialCount" ELSE ? END > ?
-- bindings: [1, 0, 7]

-- NOT (name == 'x' OR ANY tags == 'y')
((t0."name" = ?) IS NOT TRUE AND NOT EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = ?)))
-- bindings: ['x', 'y']

-- fetch: distance < 5, sort name[c], rating desc, limit 10 offset 20
SELECT t0."id", t0."code", t0."createdAt", t0."distance", t0."favorite", t0."name", t0."phone", t0."priceCategory", t0."rating", t0."specialCount", t0."tipCount" FROM "venue" t0 WHERE t0."distance" < ? ORDER BY sift_fold(t0."name", 1) ASC NULLS FIRST, t0."rating" DESC NULLS LAST, t0."id" ASC LIMIT ? OFFSET ? -- 5, 10, 20

-- batch update
UPDATE "venue" AS t0 SET "favorite" = ?, "tipCount" = (t0."tipCount" + ?) WHERE t0."rating" IS NULL -- 0, 1

-- batch delete
DELETE FROM "venue" AS t0 WHERE t0."tipCount" < ? -- 10
DELETE FROM "venue__scores" WHERE NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "venue__scores"."owner")
DELETE FROM "venue__tags" WHERE NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "venue__tags"."owner")
UPDATE "menu_item" SET "venue_id" = NULL WHERE "menu_item"."venue_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "menu_item"."venue_id")

-- DDL
CREATE TABLE IF NOT EXISTS "location" ("id" INTEGER PRIMARY KEY, "city" TEXT, "distance" REAL, "zip" TEXT, "__sift_index" INTEGER);
CREATE TABLE IF NOT EXISTS "menu_item" ("id" INTEGER PRIMARY KEY, "item" TEXT, "price" REAL, "vegan" INTEGER, "venue_id" INTEGER, "__sift_index" INTEGER);
CREATE TABLE IF NOT EXISTS "venue" ("id" INTEGER PRIMARY KEY, "code" TEXT, "createdAt" INTEGER, "distance" REAL, "favorite" INTEGER, "name" TEXT, "phone" TEXT, "priceCategory" TEXT, "rating" REAL, "specialCount" INTEGER, "tipCount" INTEGER, "location_id" INTEGER, "__sift_count_scores" INTEGER, "__sift_count_tags" INTEGER, "__sift_count_menu" INTEGER, "__sift_index" INTEGER);
CREATE TABLE IF NOT EXISTS "venue__scores" ("owner" INTEGER NOT NULL, "position" INTEGER NOT NULL, "value" INTEGER, PRIMARY KEY ("owner", "position"));
CREATE TABLE IF NOT EXISTS "venue__tags" ("owner" INTEGER NOT NULL, "position" INTEGER NOT NULL, "value" TEXT, PRIMARY KEY ("owner", "position"));
CREATE INDEX IF NOT EXISTS "menu_item__venue_id__idx" ON "menu_item" ("venue_id");
CREATE INDEX IF NOT EXISTS "venue__distance__idx" ON "venue" ("distance");
CREATE INDEX IF NOT EXISTS "venue__name__idx" ON "venue" ("name");
CREATE INDEX IF NOT EXISTS "venue__location_id__idx" ON "venue" ("location_id");
