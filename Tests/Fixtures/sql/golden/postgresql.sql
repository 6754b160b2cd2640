-- Golden SQL for postgresql. Re-record: RECORD_GOLDEN=1 swift test --filter SQLGoldenTests

-- name == %@  args: "Red bar"
t0."name" = $1
-- bindings: ['Red bar']

-- priceCategory != '$'
t0."priceCategory" IS DISTINCT FROM $1
-- bindings: ['$']

-- NOT (rating > 4.5)
(t0."rating" > $1) IS NOT TRUE
-- bindings: [4.5]

-- rating == nil OR rating <= 1
(t0."rating" IS NULL OR t0."rating" <= $1)
-- bindings: [1]

-- specialCount IN {1, 3, nil}
(t0."specialCount" IN ($1, $2) OR t0."specialCount" IS NULL)
-- bindings: [1, 3]

-- specialCount IN {}
1 = 0
-- bindings: []

-- id IN %@  args: [1, 2, 3]
t0."id" IN ($1, $2, $3)
-- bindings: [1, 2, 3]

-- distance BETWEEN {1, 2}
(t0."distance" >= $1 AND t0."distance" <= $2)
-- bindings: [1, 2]

-- favorite == YES
t0."favorite" = $1
-- bindings: [TRUE]

-- favorite == 1 AND specialCount == TRUE
(t0."favorite" = $1 AND t0."specialCount" = $2)
-- bindings: [TRUE, 1]

-- name BEGINSWITH 'Blue'
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['Blue%']

-- name BEGINSWITH[cd] 'blue'
(sift.sift_fold(t0."name", 3) ~>=~ $1 AND sift.sift_fold(t0."name", 3) ~<~ $2)
-- bindings: ['blue', 'bluf']

-- name ENDSWITH 'Café'
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['%Café']

-- name CONTAINS %@  args: "50%_off\\"
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['%50\%\_off\\%']

-- name LIKE[c] '*bar?'
sift.sift_fold(t0."name", 1) LIKE $1 ESCAPE '\'
-- bindings: ['%bar_']

-- name MATCHES '(Blue|Red) .*'
t0."name" ~ ('^(?:' || $1 || ')$')
-- bindings: ['(Blue|Red) .*']

-- name MATCHES[cd] 'cafe.*'
sift.sift_fold(t0."name", 2) ~* ('^(?:' || sift.sift_fold($1, 2) || ')$')
-- bindings: ['cafe.*']

-- name ==[cd] 'zurich'
sift.sift_fold(t0."name", 3) = sift.sift_fold($1, 3)
-- bindings: ['zurich']

-- name < 'C'
t0."name" COLLATE "C" < $1
-- bindings: ['C']

-- location.city ==[c] 'berlin'
sift.sift_fold((SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id"), 1) = sift.sift_fold($1, 1)
-- bindings: ['berlin']

-- location == nil
t0."location_id" IS NULL
-- bindings: []

-- ANY tags == 'wifi'
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $1))
-- bindings: ['wifi']

-- ALL scores > 50
NOT EXISTS (SELECT 1 FROM "venue__scores" t1 WHERE (t1."owner" = t0."id" AND (t1."value" > $1) IS NOT TRUE))
-- bindings: [50]

-- NONE menu.price > 30
NOT EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND t1."price" > $1))
-- bindings: [30]

-- tags.@count > 2
t0."__sift_count_tags" > $1
-- bindings: [2]

-- menu.@avg.price > 30
CASE WHEN t0."__sift_count_menu" IS NULL THEN NULL ELSE (SELECT (SUM(CAST(t1."price" AS DOUBLE PRECISION)) / NULLIF(COUNT(t1."price"), 0)) FROM "menu_item" t1 WHERE t1."venue_id" = t0."id") END > $1
-- bindings: [30]

-- scores.@sum > 300
CASE WHEN t0."__sift_count_scores" IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(t1."value"), 0) FROM "venue__scores" t1 WHERE t1."owner" = t0."id") END > $1
-- bindings: [300]

-- SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0
(SELECT COUNT(*) FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND (t1."vegan" = $1 AND t1."price" < $2))) > $3
-- bindings: [TRUE, 10, 0]

-- tags[FIRST] == 'vegan'
(SELECT t1."value" FROM "venue__tags" t1 WHERE t1."owner" = t0."id" ORDER BY t1."position" ASC LIMIT 1) = $1
-- bindings: ['vegan']

-- 'wifi' IN tags
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $1))
-- bindings: ['wifi']

-- tipCount / 10 > specialCount
(t0."tipCount" / $1) > t0."specialCount"
-- bindings: [10]

-- specialCount ** 2 == 16
power(t0."specialCount", $1) = $2
-- bindings: [2, 16]

-- TERNARY(favorite == YES, specialCount, 0) > 7
CASE WHEN t0."favorite" = $1 THEN t0."specialCount" ELSE $2 END > $3
-- bindings: [TRUE, 0, 7]

-- NOT (name == 'x' OR ANY tags == 'y')
((t0."name" = $1) IS NOT TRUE AND NOT EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $2)))
-- bindings: ['x', 'y']

-- fetch: distance < 5, sort name[c], rating desc, limit 10 offset 20
SELECT t0."id", t0."code", t0."createdAt", t0."distance", t0."favorite", t0."name", t0."phone", t0."priceCategory", t0."rating", t0."specialCount", t0."tipCount" FROM "venue" t0 WHERE t0."distance" < $1 ORDER BY sift.sift_fold(t0."name", 1) COLLATE "C" ASC NULLS FIRST, t0."rating" DESC NULLS LAST, t0."id" ASC LIMIT $2 OFFSET $3 -- 5, 10, 20

-- batch update
UPDATE "venue" AS t0 SET "favorite" = $1, "tipCount" = (t0."tipCount" + $2) WHERE t0."rating" IS NULL -- FALSE, 1

-- batch delete
DELETE FROM "venue" AS t0 WHERE t0."tipCount" < $1 -- 10
DELETE FROM "venue__scores" WHERE NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "venue__scores"."owner")
DELETE FROM "venue__tags" WHERE NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "venue__tags"."owner")
UPDATE "menu_item" SET "venue_id" = NULL WHERE "menu_item"."venue_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "menu_item"."venue_id")

-- DDL
CREATE TABLE IF NOT EXISTS "location" ("id" BIGINT PRIMARY KEY, "city" TEXT, "distance" DOUBLE PRECISION, "zip" TEXT, "__sift_index" BIGINT);
CREATE TABLE IF NOT EXISTS "menu_item" ("id" BIGINT PRIMARY KEY, "item" TEXT, "price" DOUBLE PRECISION, "vegan" BOOLEAN, "venue_id" BIGINT, "__sift_index" BIGINT);
CREATE TABLE IF NOT EXISTS "venue" ("id" BIGINT PRIMARY KEY, "code" TEXT, "createdAt" BIGINT, "distance" DOUBLE PRECISION, "favorite" BOOLEAN, "name" TEXT, "phone" TEXT, "priceCategory" TEXT, "rating" DOUBLE PRECISION, "specialCount" BIGINT, "tipCount" BIGINT, "location_id" BIGINT, "__sift_count_scores" BIGINT, "__sift_count_tags" BIGINT, "__sift_count_menu" BIGINT, "__sift_index" BIGINT);
CREATE TABLE IF NOT EXISTS "venue__scores" ("owner" BIGINT NOT NULL, "position" BIGINT NOT NULL, "value" BIGINT, PRIMARY KEY ("owner", "position"));
CREATE TABLE IF NOT EXISTS "venue__tags" ("owner" BIGINT NOT NULL, "position" BIGINT NOT NULL, "value" TEXT, PRIMARY KEY ("owner", "position"));
CREATE INDEX IF NOT EXISTS "menu_item__venue_id__idx" ON "menu_item" ("venue_id");
CREATE INDEX IF NOT EXISTS "venue__distance__idx" ON "venue" ("distance");
CREATE INDEX IF NOT EXISTS "venue__name__idx" ON "venue" ("name");
CREATE INDEX IF NOT EXISTS "venue__location_id__idx" ON "venue" ("location_id");
