-- Golden SQL for postgresql. Re-record: RECORD_GOLDEN=1 swift test --filter SQLGoldenTests

-- == Sift-made layout: venues.schema.json, entity Venue

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

-- rating != nil
t0."rating" IS NOT NULL
-- bindings: []

-- nil == rating
t0."rating" IS NULL
-- bindings: []

-- rating >= 4 AND rating < 4.5
(t0."rating" >= $1 AND t0."rating" < $2)
-- bindings: [4, 4.5]

-- 4 < rating
$1 < t0."rating"
-- bindings: [4]

-- specialCount IN {1, 3, nil}
(t0."specialCount" IN ($1, $2) OR t0."specialCount" IS NULL)
-- bindings: [1, 3]

-- specialCount IN {}
1 = 0
-- bindings: []

-- NOT (specialCount IN {1, 2})
(t0."specialCount" IN ($1, $2)) IS NOT TRUE
-- bindings: [1, 2]

-- id IN %@  args: [1, 2, 3]
t0."id" IN ($1, $2, $3)
-- bindings: [1, 2, 3]

-- distance BETWEEN {1, 2}
(t0."distance" >= $1 AND t0."distance" <= $2)
-- bindings: [1, 2]

-- NOT (distance BETWEEN {1, 2})
((t0."distance" >= $1 AND t0."distance" <= $2)) IS NOT TRUE
-- bindings: [1, 2]

-- distance BETWEEN %@  args: [0.5, 3]
(t0."distance" >= $1 AND t0."distance" <= $2)
-- bindings: [0.5, 3]

-- favorite == YES
t0."favorite" = $1
-- bindings: [TRUE]

-- favorite == NO
t0."favorite" = $1
-- bindings: [FALSE]

-- favorite != YES
t0."favorite" IS DISTINCT FROM $1
-- bindings: [TRUE]

-- favorite == 1 AND specialCount == TRUE
(t0."favorite" = $1 AND t0."specialCount" = $2)
-- bindings: [TRUE, 1]

-- favorite == nil
t0."favorite" IS NULL
-- bindings: []

-- TRUEPREDICATE
1 = 1
-- bindings: []

-- FALSEPREDICATE
1 = 0
-- bindings: []

-- name == name
t0."name" IS NOT DISTINCT FROM t0."name"
-- bindings: []

-- distance < rating
t0."distance" < t0."rating"
-- bindings: []

-- specialCount == tipCount
t0."specialCount" IS NOT DISTINCT FROM t0."tipCount"
-- bindings: []

-- createdAt > 1700000000
t0."createdAt" > $1
-- bindings: [1700000000]

-- code == %@  args: "B-1"
t0."code" = $1
-- bindings: ['B-1']

-- phone == nil AND code != nil
(t0."phone" IS NULL AND t0."code" IS NOT NULL)
-- bindings: []

-- (specialCount > 5 OR favorite == YES) AND distance < 5
((t0."specialCount" > $1 OR t0."favorite" = $2) AND t0."distance" < $3)
-- bindings: [5, TRUE, 5]

-- NOT (name == 'x' OR ANY tags == 'y')
((t0."name" = $1) IS NOT TRUE AND NOT EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $2)))
-- bindings: ['x', 'y']

-- NOT (NOT (rating > 3))
t0."rating" > $1
-- bindings: [3]

-- name == 'a' OR name == 'b' OR name == 'c'
(t0."name" = $1 OR t0."name" = $2 OR t0."name" = $3)
-- bindings: ['a', 'b', 'c']

-- name IN {'Red bar', 'Blue cafe'}
t0."name" IN ($1, $2)
-- bindings: ['Red bar', 'Blue cafe']

-- name IN[c] {'red bar', 'BLUE CAFE'}
sift.sift_fold(t0."name", 1) IN (sift.sift_fold($1, 1), sift.sift_fold($2, 1))
-- bindings: ['red bar', 'BLUE CAFE']

-- name BEGINSWITH 'Blue'
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['Blue%']

-- name BEGINSWITH[c] 'blue'
(sift.sift_fold(t0."name", 1) ~>=~ $1 AND sift.sift_fold(t0."name", 1) ~<~ $2)
-- bindings: ['blue', 'bluf']

-- name BEGINSWITH[d] 'cafe'
(sift.sift_fold(t0."name", 2) ~>=~ $1 AND sift.sift_fold(t0."name", 2) ~<~ $2)
-- bindings: ['cafe', 'caff']

-- name BEGINSWITH[cd] 'blue'
(sift.sift_fold(t0."name", 3) ~>=~ $1 AND sift.sift_fold(t0."name", 3) ~<~ $2)
-- bindings: ['blue', 'bluf']

-- name ENDSWITH 'Café'
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['%Café']

-- name ENDSWITH[c] 'BAR'
sift.sift_fold(t0."name", 1) LIKE $1 ESCAPE '\'
-- bindings: ['%bar']

-- name CONTAINS %@  args: "50%_off\\"
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['%50\%\_off\\%']

-- name CONTAINS[c] 'BAR'
sift.sift_fold(t0."name", 1) LIKE $1 ESCAPE '\'
-- bindings: ['%bar%']

-- name CONTAINS[cd] 'cafe'
sift.sift_fold(t0."name", 3) LIKE $1 ESCAPE '\'
-- bindings: ['%cafe%']

-- name CONTAINS code
(strpos(t0."name", t0."code") > 0 AND length(t0."code") > 0)
-- bindings: []

-- name BEGINSWITH ''
1 = 0
-- bindings: []

-- name LIKE 'Blue*'
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['Blue%']

-- name LIKE[c] '*bar?'
sift.sift_fold(t0."name", 1) LIKE $1 ESCAPE '\'
-- bindings: ['%bar_']

-- name LIKE[cd] 'caf*'
sift.sift_fold(t0."name", 3) LIKE $1 ESCAPE '\'
-- bindings: ['caf%']

-- name MATCHES '(Blue|Red) .*'
t0."name" ~ ('^(?:' || $1 || ')$')
-- bindings: ['(Blue|Red) .*']

-- name MATCHES[c] 'blue.*'
t0."name" ~* ('^(?:' || $1 || ')$')
-- bindings: ['blue.*']

-- name MATCHES[cd] 'cafe.*'
sift.sift_fold(t0."name", 2) ~* ('^(?:' || sift.sift_fold($1, 2) || ')$')
-- bindings: ['cafe.*']

-- name ==[c] 'RED BAR'
sift.sift_fold(t0."name", 1) = sift.sift_fold($1, 1)
-- bindings: ['RED BAR']

-- name ==[d] 'Cafe'
sift.sift_fold(t0."name", 2) = sift.sift_fold($1, 2)
-- bindings: ['Cafe']

-- name ==[cd] 'zurich'
sift.sift_fold(t0."name", 3) = sift.sift_fold($1, 3)
-- bindings: ['zurich']

-- name !=[c] 'red bar'
sift.sift_fold(t0."name", 1) IS DISTINCT FROM sift.sift_fold($1, 1)
-- bindings: ['red bar']

-- name < 'C'
t0."name" COLLATE "C" < $1
-- bindings: ['C']

-- name >= 'M' AND name < 'N'
(t0."name" COLLATE "C" >= $1 AND t0."name" COLLATE "C" < $2)
-- bindings: ['M', 'N']

-- name BETWEEN {'A', 'M'}
(t0."name" COLLATE "C" >= $1 AND t0."name" COLLATE "C" <= $2)
-- bindings: ['A', 'M']

-- name <[c] 'c'
sift.sift_fold(t0."name", 1) COLLATE "C" < sift.sift_fold($1, 1)
-- bindings: ['c']

-- 'Blue' IN name
t0."name" LIKE $1 ESCAPE '\'
-- bindings: ['%Blue%']

-- location.city ==[c] 'berlin'
sift.sift_fold((SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id"), 1) = sift.sift_fold($1, 1)
-- bindings: ['berlin']

-- location.city == 'Oslo'
(SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id") = $1
-- bindings: ['Oslo']

-- location.city == nil
(SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id") IS NULL
-- bindings: []

-- location.city != 'Oslo'
(SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id") IS DISTINCT FROM $1
-- bindings: ['Oslo']

-- location == nil
t0."location_id" IS NULL
-- bindings: []

-- location != nil
t0."location_id" IS NOT NULL
-- bindings: []

-- location.distance < distance
(SELECT t1."distance" FROM "location" t1 WHERE t1."id" = t0."location_id") < t0."distance"
-- bindings: []

-- location.city BEGINSWITH 'Be'
(SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id") LIKE $1 ESCAPE '\'
-- bindings: ['Be%']

-- location.zip IN {'10115', '0150'}
(SELECT t1."zip" FROM "location" t1 WHERE t1."id" = t0."location_id") IN ($1, $2)
-- bindings: ['10115', '0150']

-- NOT (location.city == 'Oslo')
((SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id") = $1) IS NOT TRUE
-- bindings: ['Oslo']

-- ANY tags == 'wifi'
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $1))
-- bindings: ['wifi']

-- ANY tags ==[c] 'WIFI'
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND sift.sift_fold(t1."value", 1) = sift.sift_fold($1, 1)))
-- bindings: ['WIFI']

-- ANY tags BEGINSWITH 've'
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" LIKE $1 ESCAPE '\'))
-- bindings: ['ve%']

-- NONE tags == 'loud'
NOT EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $1))
-- bindings: ['loud']

-- ALL tags != 'loud'
NOT EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND (t1."value" IS DISTINCT FROM $1) IS NOT TRUE))
-- bindings: ['loud']

-- ALL scores > 50
NOT EXISTS (SELECT 1 FROM "venue__scores" t1 WHERE (t1."owner" = t0."id" AND (t1."value" > $1) IS NOT TRUE))
-- bindings: [50]

-- ANY scores BETWEEN {10, 20}
EXISTS (SELECT 1 FROM "venue__scores" t1 WHERE (t1."owner" = t0."id" AND (t1."value" >= $1 AND t1."value" <= $2)))
-- bindings: [10, 20]

-- ANY scores IN {1, 2, 3}
EXISTS (SELECT 1 FROM "venue__scores" t1 WHERE (t1."owner" = t0."id" AND t1."value" IN ($1, $2, $3)))
-- bindings: [1, 2, 3]

-- 'wifi' IN tags
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $1))
-- bindings: ['wifi']

-- tags CONTAINS 'wifi'
EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $1))
-- bindings: ['wifi']

-- tags.@count > 2
t0."__sift_count_tags" > $1
-- bindings: [2]

-- tags.@count == 0
t0."__sift_count_tags" = $1
-- bindings: [0]

-- tags == nil
t0."__sift_count_tags" IS NULL
-- bindings: []

-- scores.@sum > 300
CASE WHEN t0."__sift_count_scores" IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(t1."value"), 0) FROM "venue__scores" t1 WHERE t1."owner" = t0."id") END > $1
-- bindings: [300]

-- scores.@avg >= 50
CASE WHEN t0."__sift_count_scores" IS NULL THEN NULL ELSE (SELECT (SUM(CAST(t1."value" AS DOUBLE PRECISION)) / NULLIF(COUNT(t1."value"), 0)) FROM "venue__scores" t1 WHERE t1."owner" = t0."id") END >= $1
-- bindings: [50]

-- scores.@min < 10
CASE WHEN t0."__sift_count_scores" IS NULL THEN NULL ELSE (SELECT MIN(t1."value") FROM "venue__scores" t1 WHERE t1."owner" = t0."id") END < $1
-- bindings: [10]

-- scores.@max > 90
CASE WHEN t0."__sift_count_scores" IS NULL THEN NULL ELSE (SELECT MAX(t1."value") FROM "venue__scores" t1 WHERE t1."owner" = t0."id") END > $1
-- bindings: [90]

-- tags[FIRST] == 'vegan'
(SELECT t1."value" FROM "venue__tags" t1 WHERE t1."owner" = t0."id" ORDER BY t1."position" ASC LIMIT 1) = $1
-- bindings: ['vegan']

-- tags[LAST] == 'wifi'
(SELECT t1."value" FROM "venue__tags" t1 WHERE t1."owner" = t0."id" ORDER BY t1."position" DESC LIMIT 1) = $1
-- bindings: ['wifi']

-- tags[SIZE] > 1
t0."__sift_count_tags" > $1
-- bindings: [1]

-- scores[0] > 10
(SELECT t1."value" FROM "venue__scores" t1 WHERE (t1."owner" = t0."id" AND t1."position" = $1)) > $2
-- bindings: [0, 10]

-- ANY menu.price < 10
EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND t1."price" < $1))
-- bindings: [10]

-- ANY menu.item ==[c] 'soup'
EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND sift.sift_fold(t1."item", 1) = sift.sift_fold($1, 1)))
-- bindings: ['soup']

-- NONE menu.price > 30
NOT EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND t1."price" > $1))
-- bindings: [30]

-- ALL menu.vegan == YES
NOT EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND (t1."vegan" = $1) IS NOT TRUE))
-- bindings: [TRUE]

-- menu.@count >= 2
t0."__sift_count_menu" >= $1
-- bindings: [2]

-- menu.@avg.price > 30
CASE WHEN t0."__sift_count_menu" IS NULL THEN NULL ELSE (SELECT (SUM(CAST(t1."price" AS DOUBLE PRECISION)) / NULLIF(COUNT(t1."price"), 0)) FROM "menu_item" t1 WHERE t1."venue_id" = t0."id") END > $1
-- bindings: [30]

-- menu.@sum.price < 100
CASE WHEN t0."__sift_count_menu" IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(t1."price"), 0) FROM "menu_item" t1 WHERE t1."venue_id" = t0."id") END < $1
-- bindings: [100]

-- menu.@min.price < 5
CASE WHEN t0."__sift_count_menu" IS NULL THEN NULL ELSE (SELECT MIN(t1."price") FROM "menu_item" t1 WHERE t1."venue_id" = t0."id") END < $1
-- bindings: [5]

-- menu.@max.item > 'M'
CASE WHEN t0."__sift_count_menu" IS NULL THEN NULL ELSE (SELECT MAX(t1."item" COLLATE "C") FROM "menu_item" t1 WHERE t1."venue_id" = t0."id") END COLLATE "C" > $1
-- bindings: ['M']

-- ANY menu.@distinctUnionOfObjects.item == 'soup'
EXISTS (SELECT 1 FROM "menu_item" t1 WHERE ((t1."venue_id" = t0."id" AND t1."item" IS NOT NULL) AND t1."item" = $1))
-- bindings: ['soup']

-- ANY menu.price < location.distance
EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND t1."price" < (SELECT t2."distance" FROM "location" t2 WHERE t2."id" = t0."location_id")))
-- bindings: []

-- SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0
(SELECT COUNT(*) FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND (t1."vegan" = $1 AND t1."price" < $2))) > $3
-- bindings: [TRUE, 10, 0]

-- SUBQUERY(menu, $m, $m.price > distance).@count == 0
(SELECT COUNT(*) FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND t1."price" > t0."distance")) = $1
-- bindings: [0]

-- SUBQUERY(tags, $t, $t BEGINSWITH 'w').@count >= 1
(SELECT COUNT(*) FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" LIKE $1 ESCAPE '\')) >= $2
-- bindings: ['w%', 1]

-- tipCount / 10 > specialCount
(t0."tipCount" / $1) > t0."specialCount"
-- bindings: [10]

-- specialCount ** 2 == 16
power(t0."specialCount", $1) = $2
-- bindings: [2, 16]

-- specialCount + tipCount > 10
(t0."specialCount" + t0."tipCount") > $1
-- bindings: [10]

-- specialCount - 1 == tipCount * 2
(t0."specialCount" - $1) IS NOT DISTINCT FROM (t0."tipCount" * $2)
-- bindings: [1, 2]

-- -distance < -1
(- t0."distance") < $1
-- bindings: [-1]

-- distance * 2 + 1 BETWEEN {3, 5}
(((t0."distance" * $1) + $2) >= $3 AND ((t0."distance" * $4) + $5) <= $6)
-- bindings: [2, 1, 3, 2, 1, 5]

-- modulus:by:(specialCount, 3) == 1
(t0."specialCount" % $1) = $2
-- bindings: [3, 1]

-- sqrt:(distance) > 1
sqrt(CAST(t0."distance" AS DOUBLE PRECISION)) > $1
-- bindings: [1]

-- floor:(distance) == 1
floor(CAST(t0."distance" AS DOUBLE PRECISION)) = $1
-- bindings: [1]

-- abs:(distance) > 1
abs(t0."distance") > $1
-- bindings: [1]

-- TERNARY(favorite == YES, specialCount, 0) > 7
CASE WHEN t0."favorite" = $1 THEN t0."specialCount" ELSE $2 END > $3
-- bindings: [TRUE, 0, 7]

-- TERNARY(rating == nil, 0, rating) >= 4
CASE WHEN t0."rating" IS NULL THEN $1 ELSE t0."rating" END >= $2
-- bindings: [0, 4]

-- lowercase:(name) == 'red bar'
lower(t0."name") = $1
-- bindings: ['red bar']

-- uppercase:(name) BEGINSWITH 'RED'
upper(t0."name") LIKE $1 ESCAPE '\'
-- bindings: ['RED%']

-- SELF.name == 'Red bar'
t0."name" = $1
-- bindings: ['Red bar']

-- name == %@ AND distance < %@  args: "Red bar", 2.5
(t0."name" = $1 AND t0."distance" < $2)
-- bindings: ['Red bar', 2.5]

-- CAST(rating, 'NSString') == '4.5'
sift.sift_number_text(t0."rating") = $1
-- bindings: ['4.5']

-- CAST(specialCount, 'NSString') == '5'
CAST(t0."specialCount" AS TEXT) = $1
-- bindings: ['5']

-- CAST(favorite, 'NSString') == '1'
CAST(CAST(t0."favorite" AS INTEGER) AS TEXT) = $1
-- bindings: ['1']

-- CAST(code, 'NSNumber') > 1
sift.sift_text_number(t0."code") > $1
-- bindings: [1]

-- CAST(favorite, 'NSNumber') == 1
CAST(t0."favorite" AS INTEGER) = $1
-- bindings: [1]

-- CAST(createdAt, 'NSDate') < %@  args: {"$date": "2023-11-14T22:13:20Z"}
CAST(t0."createdAt" AS DOUBLE PRECISION) < $1
-- bindings: [721692800.0]

-- FUNCTION(name, 'length') > 3
sift.sift_utf16_length(t0."name") > $1
-- bindings: [3]

-- FUNCTION(name, 'uppercaseString') == 'RED BAR'
upper(t0."name") = $1
-- bindings: ['RED BAR']

-- FUNCTION(rating, 'intValue') == 4
trunc(CAST(t0."rating" AS DOUBLE PRECISION)) = $1
-- bindings: [4]

-- FUNCTION(favorite, 'boolValue') == YES
CASE WHEN CAST(t0."favorite" AS INTEGER) IS NULL THEN $1 ELSE CASE WHEN CAST(t0."favorite" AS INTEGER) IS DISTINCT FROM $2 THEN $3 ELSE $4 END END = $5
-- bindings: [NULL, 0, TRUE, FALSE, TRUE]

-- FUNCTION(tags, 'count') == 2
t0."__sift_count_tags" = $1
-- bindings: [2]

-- fetch: location.city == 'Oslo' (a semi-join)
SELECT COUNT(*) FROM "venue" t0 WHERE t0."location_id" IN (SELECT t1."id" FROM "location" t1 WHERE t1."city" = $1)
-- bindings: ['Oslo']

-- fetch: location.city == nil OR name == 'x' (a left join)
SELECT COUNT(*) FROM "venue" t0 LEFT JOIN "location" t1 ON t1."id" = t0."location_id" WHERE (t1."city" IS NULL OR t0."name" = $1)
-- bindings: ['x']

-- fetch: location.city ==[c] 'oslo' AND NOT (location.zip == '1') (semi-joins)
SELECT t0."id", t0."code", t0."createdAt", t0."distance", t0."favorite", t0."name", t0."phone", t0."priceCategory", t0."rating", t0."specialCount", t0."tipCount" FROM "venue" t0 WHERE (t0."location_id" IN (SELECT t1."id" FROM "location" t1 WHERE sift.sift_fold(t1."city", 1) = sift.sift_fold($1, 1)) AND (t0."location_id" IN (SELECT t2."id" FROM "location" t2 WHERE t2."zip" = $2)) IS NOT TRUE) ORDER BY t0."id" ASC
-- bindings: ['oslo', '1']

-- fetch: NOT (location.city == 'Oslo') (a negated semi-join)
SELECT COUNT(*) FROM "venue" t0 WHERE (t0."location_id" IN (SELECT t1."id" FROM "location" t1 WHERE t1."city" = $1)) IS NOT TRUE
-- bindings: ['Oslo']

-- fetch: location.distance < distance AND location.zip == nil (one left join)
SELECT COUNT(*) FROM "venue" t0 LEFT JOIN "location" t1 ON t1."id" = t0."location_id" WHERE (t1."distance" < t0."distance" AND t1."zip" IS NULL)
-- bindings: []

-- fetch: ANY menu.price < location.distance (a left join the subselect refers to)
SELECT COUNT(*) FROM "venue" t0 LEFT JOIN "location" t2 ON t2."id" = t0."location_id" WHERE EXISTS (SELECT 1 FROM "menu_item" t1 WHERE (t1."venue_id" = t0."id" AND t1."price" < t2."distance"))
-- bindings: []

-- fetch: location.city == 'Oslo', sorted by location.city, distinct cities
SELECT DISTINCT (SELECT t2."city" FROM "location" t2 WHERE t2."id" = t0."location_id") COLLATE "C" FROM "venue" t0 LEFT JOIN "location" t1 ON t1."id" = t0."location_id" WHERE t1."city" IS NOT NULL ORDER BY (SELECT t2."city" FROM "location" t2 WHERE t2."id" = t0."location_id") COLLATE "C" ASC NULLS FIRST
-- bindings: []

-- fetch: distance < 5, sort name[c], rating desc, limit 10 offset 20
SELECT t0."id", t0."code", t0."createdAt", t0."distance", t0."favorite", t0."name", t0."phone", t0."priceCategory", t0."rating", t0."specialCount", t0."tipCount" FROM "venue" t0 WHERE t0."distance" < $1 ORDER BY sift.sift_fold(t0."name", 1) COLLATE "C" ASC NULLS FIRST, t0."rating" DESC NULLS LAST, t0."id" ASC LIMIT $2 OFFSET $3
-- bindings: [5, 10, 20]

-- fetch: sort rating nulls last, localized name
SELECT t0."id", t0."code", t0."createdAt", t0."distance", t0."favorite", t0."name", t0."phone", t0."priceCategory", t0."rating", t0."specialCount", t0."tipCount" FROM "venue" t0 ORDER BY t0."rating" ASC NULLS LAST, normalize(t0."name", NFKC) COLLATE "sift"."sift_localized_base" ASC NULLS FIRST, sift.sift_localized_events(normalize(t0."name", NFKC)) COLLATE "C" ASC NULLS FIRST, normalize(t0."name", NFKC) COLLATE "sift"."sift_localized_case" ASC NULLS FIRST, normalize(t0."name", NFKC) COLLATE "C" ASC NULLS FIRST, t0."name" COLLATE "C" ASC NULLS FIRST, t0."id" ASC
-- bindings: []

-- fetch: count with limit
SELECT COUNT(*) FROM (SELECT 1 FROM "venue" t0 WHERE t0."rating" > $1 LIMIT $2) AS s
-- bindings: [1, 3]

-- fetch: offset without limit
SELECT t0."id" AS "id" FROM "venue" t0 ORDER BY t0."id" ASC OFFSET $1
-- bindings: [2]

-- fetch: properties name, location.city
SELECT t0."name" AS "name", (SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id") AS "location.city" FROM "venue" t0 WHERE t0."favorite" = $1 ORDER BY t0."id" ASC
-- bindings: [TRUE]

-- fetch: indices
SELECT t0."__sift_index" FROM "venue" t0 WHERE (EXISTS (SELECT 1 FROM "venue__tags" t1 WHERE (t1."owner" = t0."id" AND t1."value" = $1)) AND t0."__sift_index" IS NOT NULL) ORDER BY t0."__sift_index" ASC
-- bindings: ['wifi']

-- fetch: aggregates grouped by priceCategory
SELECT t0."priceCategory" AS "priceCategory", COUNT(*) AS "count()", COALESCE(SUM(t0."tipCount"), 0) AS "sum(tipCount)", (SUM(CAST(t0."rating" AS DOUBLE PRECISION)) / NULLIF(COUNT(t0."rating"), 0)) AS "avg(rating)", MIN(t0."name" COLLATE "C") AS "min(name)", MAX(t0."distance") AS "max(distance)" FROM "venue" t0 WHERE t0."distance" < $1 GROUP BY t0."priceCategory" ORDER BY t0."priceCategory" COLLATE "C" ASC NULLS FIRST
-- bindings: [10]

-- fetch: aggregates grouped by location.city
SELECT (SELECT t2."city" FROM "location" t2 WHERE t2."id" = t0."location_id") AS "location.city", COUNT(*) AS "count()" FROM "venue" t0 LEFT JOIN "location" t1 ON t1."id" = t0."location_id" WHERE t1."city" IS NOT NULL GROUP BY (SELECT t2."city" FROM "location" t2 WHERE t2."id" = t0."location_id") ORDER BY (SELECT t2."city" FROM "location" t2 WHERE t2."id" = t0."location_id") COLLATE "C" ASC NULLS FIRST
-- bindings: []

-- fetch: expressions
SELECT (t0."distance" * $1) AS "distance * 2", t0."__sift_count_tags" AS "tags.@count" FROM "venue" t0 ORDER BY t0."id" ASC
-- bindings: [2]

-- sum:(tipCount) over a page
SELECT COALESCE(SUM(t0."tipCount"), 0) AS "sum(tipCount)" FROM "venue" t0 WHERE t0."id" IN (SELECT t0."id" AS "id" FROM "venue" t0 WHERE t0."distance" < $1 ORDER BY t0."id" ASC LIMIT $2)
-- bindings: [5, 5]

-- batch update
UPDATE "venue" AS t0 SET "favorite" = $1, "tipCount" = (t0."tipCount" + $2) WHERE t0."rating" IS NULL
-- bindings: [FALSE, 1]

-- batch delete, statement 1
DELETE FROM "venue" AS t0 WHERE (t0."tipCount" < $1 AND (SELECT t1."city" FROM "location" t1 WHERE t1."id" = t0."location_id") = $2)
-- bindings: [10, 'x']

-- batch delete, statement 2
DELETE FROM "venue__scores" WHERE NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "venue__scores"."owner")
-- bindings: []

-- batch delete, statement 3
DELETE FROM "venue__tags" WHERE NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "venue__tags"."owner")
-- bindings: []

-- batch delete, statement 4
UPDATE "menu_item" SET "venue_id" = NULL WHERE "menu_item"."venue_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "venue" p WHERE p."id" = "menu_item"."venue_id")
-- bindings: []

-- == A database Sift did not create: ExistingEvents.schema, entity event

-- title == %@  args: "Launch"
t0."title" = $1
-- bindings: ['Launch']

-- title BEGINSWITH[c] 'la'
(sift.sift_fold(t0."title", 1) ~>=~ $1 AND sift.sift_fold(t0."title", 1) ~<~ $2)
-- bindings: ['la', 'lb']

-- title CONTAINS[cd] 'cafe'
sift.sift_fold(t0."title", 3) LIKE $1 ESCAPE '\'
-- bindings: ['%cafe%']

-- at_unix > %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0."at_unix" > $1
-- bindings: [1700000000.0]

-- at_unix_int <= %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0."at_unix_int" <= $1
-- bindings: [1700000000]

-- at_2001 < %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0."at_2001" < $1
-- bindings: [721692800.0]

-- at_ms BETWEEN %@  args: [{"$date": "2020-09-13T12:26:40Z"}, {"$date": "2027-01-15T08:00:00Z"}]
(t0."at_ms" >= $1 AND t0."at_ms" <= $2)
-- bindings: [1600000000000, 1800000000000]

-- at_iso >= %@  args: {"$date": "2023-11-14T22:13:20.500Z"}
(t0."at_iso" COLLATE "C" >= $1 AND t0."at_iso" COLLATE "C" <> $2)
-- bindings: ['2023-11-14T22:13:20.500', '2023-11-14T22:13:20Z']

-- at_sqlite == %@  args: {"$date": "2023-11-14T22:13:20Z"}
(t0."at_sqlite" COLLATE "C" >= $1 AND t0."at_sqlite" COLLATE "C" <= $2)
-- bindings: ['2023-11-14 22:13:20', '2023-11-14 22:13:20.000']

-- CAST(at_iso, 'NSNumber') > 0
(CAST(EXTRACT(EPOCH FROM CAST(t0."at_iso" AS timestamptz)) AS double precision) - 978307200) > $1
-- bindings: [0]

-- FUNCTION(at_2001, 'timeIntervalSince1970') > 1700000000
(CAST(t0."at_2001" AS DOUBLE PRECISION) + $1) > $2
-- bindings: [978307200, 1700000000]

-- on_day == %@  args: {"$date": "2023-11-15T00:00:00Z"}
t0."on_day" = CAST($1 AS timestamp)
-- bindings: ['2023-11-15T00:00:00Z']

-- at_tz > %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0."at_tz" > CAST($1 AS timestamptz)
-- bindings: ['2023-11-14T22:13:20Z']

-- at_ts < %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0."at_ts" < CAST($1 AS timestamp)
-- bindings: ['2023-11-14T22:13:20Z']

-- at_ms == nil
t0."at_ms" IS NULL
-- bindings: []

-- ANY tags == 'wifi'
EXISTS (SELECT 1 FROM unnest(t0."tags") WITH ORDINALITY AS t1("value", "position") WHERE t1."value" = $1)
-- bindings: ['wifi']

-- tags.@count > 1
cardinality(t0."tags") > $1
-- bindings: [1]

-- ALL scores > 1
NOT EXISTS (SELECT 1 FROM unnest(t0."scores") WITH ORDINALITY AS t1("value", "position") WHERE (t1."value" > $1) IS NOT TRUE)
-- bindings: [1]

-- weights.@sum > 1.5
CASE WHEN t0."weights" IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(t1."value"), 0) FROM unnest(t0."weights") WITH ORDINALITY AS t1("value", "position") WHERE 1 = 1) END > $1
-- bindings: [1.5]

-- ANY jtags ==[c] 'A'
EXISTS (SELECT 1 FROM jsonb_array_elements_text(t0."jtags") WITH ORDINALITY AS t1("value", "position") WHERE sift.sift_fold(t1."value", 1) = sift.sift_fold($1, 1))
-- bindings: ['A']

-- price > 10.5
t0."price" > CAST($1 AS NUMERIC)
-- bindings: ['10.5']

-- flag == YES
t0."flag" = $1
-- bindings: [TRUE]

-- code == %@  args: "00000000-0000-0000-0000-000000000001"
t0."code" = CAST($1 AS uuid)
-- bindings: ['00000000-0000-0000-0000-000000000001']

-- venue.name == 'Hall'
t0."venue_id" IN (SELECT t1."id" FROM "venue" t1 WHERE t1."name" = $1)
-- bindings: ['Hall']

-- venue == nil
t0."venue_id" IS NULL
-- bindings: []

-- venue.name == nil OR flag == NO
((SELECT t1."name" FROM "venue" t1 WHERE t1."id" = t0."venue_id") IS NULL OR t0."flag" = $1)
-- bindings: [FALSE]

-- ANY tickets.seat BEGINSWITH 'A'
EXISTS (SELECT 1 FROM "ticket" t1 WHERE (t1."event_id" = t0."id" AND t1."seat" LIKE $1 ESCAPE '\'))
-- bindings: ['A%']

-- ANY performers.name == 'Ada'
EXISTS (SELECT 1 FROM "event_performer" j1 JOIN "performer" t2 ON t2."id" = j1."performer_id" WHERE (j1."event_id" = t0."id" AND t2."name" = $1))
-- bindings: ['Ada']

-- SUBQUERY(tickets, $t, $t.seat != nil).@count > 1
(SELECT COUNT(*) FROM "ticket" t1 WHERE (t1."event_id" = t0."id" AND t1."seat" IS NOT NULL)) > $1
-- bindings: [1]

-- tickets.@count == 0
(SELECT COUNT(*) FROM "ticket" t1 WHERE t1."event_id" = t0."id") = $1
-- bindings: [0]

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
