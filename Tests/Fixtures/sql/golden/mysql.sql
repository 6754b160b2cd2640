-- Golden SQL for mysql. Re-record: RECORD_GOLDEN=1 swift test --filter SQLGoldenTests

-- == Sift-made layout: venues.schema.json, entity Venue

-- name == %@  args: "Red bar"
t0.`name` = ?
-- bindings: ['Red bar']

-- priceCategory != '$'
NOT (t0.`priceCategory` <=> ?)
-- bindings: ['$']

-- NOT (rating > 4.5)
(t0.`rating` > ?) IS NOT TRUE
-- bindings: [4.5]

-- rating == nil OR rating <= 1
(t0.`rating` IS NULL OR t0.`rating` <= ?)
-- bindings: [1]

-- rating != nil
t0.`rating` IS NOT NULL
-- bindings: []

-- nil == rating
t0.`rating` IS NULL
-- bindings: []

-- rating >= 4 AND rating < 4.5
(t0.`rating` >= ? AND t0.`rating` < ?)
-- bindings: [4, 4.5]

-- 4 < rating
? < t0.`rating`
-- bindings: [4]

-- specialCount IN {1, 3, nil}
(t0.`specialCount` IN (?, ?) OR t0.`specialCount` IS NULL)
-- bindings: [1, 3]

-- specialCount IN {}
1 = 0
-- bindings: []

-- NOT (specialCount IN {1, 2})
(t0.`specialCount` IN (?, ?)) IS NOT TRUE
-- bindings: [1, 2]

-- id IN %@  args: [1, 2, 3]
t0.`id` IN (?, ?, ?)
-- bindings: [1, 2, 3]

-- distance BETWEEN {1, 2}
(t0.`distance` >= ? AND t0.`distance` <= ?)
-- bindings: [1, 2]

-- NOT (distance BETWEEN {1, 2})
((t0.`distance` >= ? AND t0.`distance` <= ?)) IS NOT TRUE
-- bindings: [1, 2]

-- distance BETWEEN %@  args: [0.5, 3]
(t0.`distance` >= ? AND t0.`distance` <= ?)
-- bindings: [0.5, 3]

-- favorite == YES
t0.`favorite` = ?
-- bindings: [1]

-- favorite == NO
t0.`favorite` = ?
-- bindings: [0]

-- favorite != YES
NOT (t0.`favorite` <=> ?)
-- bindings: [1]

-- favorite == 1 AND specialCount == TRUE
(t0.`favorite` = ? AND t0.`specialCount` = ?)
-- bindings: [1, 1]

-- favorite == nil
t0.`favorite` IS NULL
-- bindings: []

-- TRUEPREDICATE
1 = 1
-- bindings: []

-- FALSEPREDICATE
1 = 0
-- bindings: []

-- name == name
t0.`name` <=> t0.`name`
-- bindings: []

-- distance < rating
t0.`distance` < t0.`rating`
-- bindings: []

-- specialCount == tipCount
t0.`specialCount` <=> t0.`tipCount`
-- bindings: []

-- createdAt > 1700000000
t0.`createdAt` > ?
-- bindings: [1700000000]

-- code == %@  args: "B-1"
t0.`code` = ?
-- bindings: ['B-1']

-- phone == nil AND code != nil
(t0.`phone` IS NULL AND t0.`code` IS NOT NULL)
-- bindings: []

-- (specialCount > 5 OR favorite == YES) AND distance < 5
((t0.`specialCount` > ? OR t0.`favorite` = ?) AND t0.`distance` < ?)
-- bindings: [5, 1, 5]

-- NOT (name == 'x' OR ANY tags == 'y')
((t0.`name` = ?) IS NOT TRUE AND NOT EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` = ?)))
-- bindings: ['x', 'y']

-- NOT (NOT (rating > 3))
t0.`rating` > ?
-- bindings: [3]

-- name == 'a' OR name == 'b' OR name == 'c'
(t0.`name` = ? OR t0.`name` = ? OR t0.`name` = ?)
-- bindings: ['a', 'b', 'c']

-- name IN {'Red bar', 'Blue cafe'}
t0.`name` IN (?, ?)
-- bindings: ['Red bar', 'Blue cafe']

-- name IN[c] {'red bar', 'BLUE CAFE'}
(`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) IN (?, ?)
-- bindings: ['red bar', 'blue cafe']

-- name BEGINSWITH 'Blue'
t0.`name` LIKE ? ESCAPE CHAR(92)
-- bindings: ['Blue%']

-- name BEGINSWITH[c] 'blue'
(`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['blue%']

-- name BEGINSWITH[d] 'cafe'
(`sift`.sift_fold(t0.`name`, 2) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['cafe%']

-- name BEGINSWITH[cd] 'blue'
(`sift`.sift_fold(t0.`name`, 3) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['blue%']

-- name ENDSWITH 'Café'
t0.`name` LIKE ? ESCAPE CHAR(92)
-- bindings: ['%Café']

-- name ENDSWITH[c] 'BAR'
(`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['%bar']

-- name CONTAINS %@  args: "50%_off\\"
t0.`name` LIKE ? ESCAPE CHAR(92)
-- bindings: ['%50\%\_off\\%']

-- name CONTAINS[c] 'BAR'
(`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['%bar%']

-- name CONTAINS[cd] 'cafe'
(`sift`.sift_fold(t0.`name`, 3) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['%cafe%']

-- name CONTAINS code
(INSTR(t0.`name`, t0.`code`) > 0 AND CHAR_LENGTH(t0.`code`) > 0)
-- bindings: []

-- name BEGINSWITH ''
1 = 0
-- bindings: []

-- name LIKE 'Blue*'
t0.`name` LIKE ? ESCAPE CHAR(92)
-- bindings: ['Blue%']

-- name LIKE[c] '*bar?'
(`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['%bar_']

-- name LIKE[cd] 'caf*'
(`sift`.sift_fold(t0.`name`, 3) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['caf%']

-- name MATCHES '(Blue|Red) .*'
t0.`name` REGEXP CONCAT('(*ANY)(*UCP)^(?:', ?, ')(?!(?s:.))')
-- bindings: ['(Blue|Red) .*']

-- name MATCHES[c] 'blue.*'
t0.`name` REGEXP CONCAT('(*ANY)(*UCP)(?i)^(?:', ?, ')(?!(?s:.))')
-- bindings: ['blue.*']

-- name MATCHES[cd] 'cafe.*'
(`sift`.sift_fold(t0.`name`, 2) COLLATE utf8mb4_nopad_bin) REGEXP CONCAT('(*ANY)(*UCP)(?i)^(?:', ?, ')(?!(?s:.))')
-- bindings: ['cafe.*']

-- name ==[c] 'RED BAR'
(`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) = ?
-- bindings: ['red bar']

-- name ==[d] 'Cafe'
(`sift`.sift_fold(t0.`name`, 2) COLLATE utf8mb4_nopad_bin) = ?
-- bindings: ['Cafe']

-- name ==[cd] 'zurich'
(`sift`.sift_fold(t0.`name`, 3) COLLATE utf8mb4_nopad_bin) = ?
-- bindings: ['zurich']

-- name !=[c] 'red bar'
NOT ((`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) <=> ?)
-- bindings: ['red bar']

-- name < 'C'
t0.`name` < ?
-- bindings: ['C']

-- name >= 'M' AND name < 'N'
(t0.`name` >= ? AND t0.`name` < ?)
-- bindings: ['M', 'N']

-- name BETWEEN {'A', 'M'}
(t0.`name` >= ? AND t0.`name` <= ?)
-- bindings: ['A', 'M']

-- name <[c] 'c'
(`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) < ?
-- bindings: ['c']

-- 'Blue' IN name
t0.`name` LIKE ? ESCAPE CHAR(92)
-- bindings: ['%Blue%']

-- location.city ==[c] 'berlin'
(`sift`.sift_fold((SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`), 1) COLLATE utf8mb4_nopad_bin) = ?
-- bindings: ['berlin']

-- location.city == 'Oslo'
(SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) = ?
-- bindings: ['Oslo']

-- location.city == nil
(SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) IS NULL
-- bindings: []

-- location.city != 'Oslo'
NOT ((SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) <=> ?)
-- bindings: ['Oslo']

-- location == nil
t0.`location_id` IS NULL
-- bindings: []

-- location != nil
t0.`location_id` IS NOT NULL
-- bindings: []

-- location.distance < distance
(SELECT t1.`distance` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) < t0.`distance`
-- bindings: []

-- location.city BEGINSWITH 'Be'
(SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) LIKE ? ESCAPE CHAR(92)
-- bindings: ['Be%']

-- location.zip IN {'10115', '0150'}
(SELECT t1.`zip` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) IN (?, ?)
-- bindings: ['10115', '0150']

-- NOT (location.city == 'Oslo')
((SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) = ?) IS NOT TRUE
-- bindings: ['Oslo']

-- ANY tags == 'wifi'
EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` = ?))
-- bindings: ['wifi']

-- ANY tags ==[c] 'WIFI'
EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND (`sift`.sift_fold(t1.`value`, 1) COLLATE utf8mb4_nopad_bin) = ?))
-- bindings: ['wifi']

-- ANY tags BEGINSWITH 've'
EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` LIKE ? ESCAPE CHAR(92)))
-- bindings: ['ve%']

-- NONE tags == 'loud'
NOT EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` = ?))
-- bindings: ['loud']

-- ALL tags != 'loud'
NOT EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND (NOT (t1.`value` <=> ?)) IS NOT TRUE))
-- bindings: ['loud']

-- ALL scores > 50
NOT EXISTS (SELECT 1 FROM `venue__scores` t1 WHERE (t1.`owner` = t0.`id` AND (t1.`value` > ?) IS NOT TRUE))
-- bindings: [50]

-- ANY scores BETWEEN {10, 20}
EXISTS (SELECT 1 FROM `venue__scores` t1 WHERE (t1.`owner` = t0.`id` AND (t1.`value` >= ? AND t1.`value` <= ?)))
-- bindings: [10, 20]

-- ANY scores IN {1, 2, 3}
EXISTS (SELECT 1 FROM `venue__scores` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` IN (?, ?, ?)))
-- bindings: [1, 2, 3]

-- 'wifi' IN tags
EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` = ?))
-- bindings: ['wifi']

-- tags CONTAINS 'wifi'
EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` = ?))
-- bindings: ['wifi']

-- tags.@count > 2
t0.`__sift_count_tags` > ?
-- bindings: [2]

-- tags.@count == 0
t0.`__sift_count_tags` = ?
-- bindings: [0]

-- tags == nil
t0.`__sift_count_tags` IS NULL
-- bindings: []

-- scores.@sum > 300
CASE WHEN t0.`__sift_count_scores` IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(t1.`value`), 0) FROM `venue__scores` t1 WHERE t1.`owner` = t0.`id`) END > ?
-- bindings: [300]

-- scores.@avg >= 50
CASE WHEN t0.`__sift_count_scores` IS NULL THEN NULL ELSE (SELECT (SUM(CAST(t1.`value` AS DOUBLE)) / NULLIF(COUNT(t1.`value`), 0)) FROM `venue__scores` t1 WHERE t1.`owner` = t0.`id`) END >= ?
-- bindings: [50]

-- scores.@min < 10
CASE WHEN t0.`__sift_count_scores` IS NULL THEN NULL ELSE (SELECT MIN(t1.`value`) FROM `venue__scores` t1 WHERE t1.`owner` = t0.`id`) END < ?
-- bindings: [10]

-- scores.@max > 90
CASE WHEN t0.`__sift_count_scores` IS NULL THEN NULL ELSE (SELECT MAX(t1.`value`) FROM `venue__scores` t1 WHERE t1.`owner` = t0.`id`) END > ?
-- bindings: [90]

-- tags[FIRST] == 'vegan'
(SELECT t1.`value` FROM `venue__tags` t1 WHERE t1.`owner` = t0.`id` ORDER BY t1.`position` ASC LIMIT 1) = ?
-- bindings: ['vegan']

-- tags[LAST] == 'wifi'
(SELECT t1.`value` FROM `venue__tags` t1 WHERE t1.`owner` = t0.`id` ORDER BY t1.`position` DESC LIMIT 1) = ?
-- bindings: ['wifi']

-- tags[SIZE] > 1
t0.`__sift_count_tags` > ?
-- bindings: [1]

-- scores[0] > 10
(SELECT t1.`value` FROM `venue__scores` t1 WHERE (t1.`owner` = t0.`id` AND t1.`position` = ?)) > ?
-- bindings: [0, 10]

-- ANY menu.price < 10
EXISTS (SELECT 1 FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND t1.`price` < ?))
-- bindings: [10]

-- ANY menu.item ==[c] 'soup'
EXISTS (SELECT 1 FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND (`sift`.sift_fold(t1.`item`, 1) COLLATE utf8mb4_nopad_bin) = ?))
-- bindings: ['soup']

-- NONE menu.price > 30
NOT EXISTS (SELECT 1 FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND t1.`price` > ?))
-- bindings: [30]

-- ALL menu.vegan == YES
NOT EXISTS (SELECT 1 FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND (t1.`vegan` = ?) IS NOT TRUE))
-- bindings: [1]

-- menu.@count >= 2
t0.`__sift_count_menu` >= ?
-- bindings: [2]

-- menu.@avg.price > 30
CASE WHEN t0.`__sift_count_menu` IS NULL THEN NULL ELSE (SELECT (SUM(CAST(t1.`price` AS DOUBLE)) / NULLIF(COUNT(t1.`price`), 0)) FROM `menu_item` t1 WHERE t1.`venue_id` = t0.`id`) END > ?
-- bindings: [30]

-- menu.@sum.price < 100
CASE WHEN t0.`__sift_count_menu` IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(t1.`price`), 0) FROM `menu_item` t1 WHERE t1.`venue_id` = t0.`id`) END < ?
-- bindings: [100]

-- menu.@min.price < 5
CASE WHEN t0.`__sift_count_menu` IS NULL THEN NULL ELSE (SELECT MIN(t1.`price`) FROM `menu_item` t1 WHERE t1.`venue_id` = t0.`id`) END < ?
-- bindings: [5]

-- menu.@max.item > 'M'
CASE WHEN t0.`__sift_count_menu` IS NULL THEN NULL ELSE (SELECT MAX(t1.`item`) FROM `menu_item` t1 WHERE t1.`venue_id` = t0.`id`) END > ?
-- bindings: ['M']

-- ANY menu.@distinctUnionOfObjects.item == 'soup'
EXISTS (SELECT 1 FROM `menu_item` t1 WHERE ((t1.`venue_id` = t0.`id` AND t1.`item` IS NOT NULL) AND t1.`item` = ?))
-- bindings: ['soup']

-- ANY menu.price < location.distance
EXISTS (SELECT 1 FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND t1.`price` < (SELECT t2.`distance` FROM `location` t2 WHERE t2.`id` = t0.`location_id`)))
-- bindings: []

-- SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0
(SELECT COUNT(*) FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND (t1.`vegan` = ? AND t1.`price` < ?))) > ?
-- bindings: [1, 10, 0]

-- SUBQUERY(menu, $m, $m.price > distance).@count == 0
(SELECT COUNT(*) FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND t1.`price` > t0.`distance`)) = ?
-- bindings: [0]

-- SUBQUERY(tags, $t, $t BEGINSWITH 'w').@count >= 1
(SELECT COUNT(*) FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` LIKE ? ESCAPE CHAR(92))) >= ?
-- bindings: ['w%', 1]

-- tipCount / 10 > specialCount
`sift`.sift_idiv(t0.`tipCount`, ?) > t0.`specialCount`
-- bindings: [10]

-- specialCount ** 2 == 16
POWER(t0.`specialCount`, ?) = ?
-- bindings: [2, 16]

-- specialCount + tipCount > 10
(t0.`specialCount` + t0.`tipCount`) > ?
-- bindings: [10]

-- specialCount - 1 == tipCount * 2
((t0.`specialCount` - ?) = (t0.`tipCount` * ?) OR (t0.`specialCount` IS NULL AND t0.`tipCount` IS NULL))
-- bindings: [1, 2]

-- -distance < -1
(- t0.`distance`) < ?
-- bindings: [-1]

-- distance * 2 + 1 BETWEEN {3, 5}
(((t0.`distance` * ?) + ?) >= ? AND ((t0.`distance` * ?) + ?) <= ?)
-- bindings: [2, 1, 3, 2, 1, 5]

-- modulus:by:(specialCount, 3) == 1
`sift`.sift_imod(t0.`specialCount`, ?) = ?
-- bindings: [3, 1]

-- sqrt:(distance) > 1
SQRT(CAST(t0.`distance` AS DOUBLE)) > ?
-- bindings: [1]

-- floor:(distance) == 1
FLOOR(CAST(t0.`distance` AS DOUBLE)) = ?
-- bindings: [1]

-- abs:(distance) > 1
abs(t0.`distance`) > ?
-- bindings: [1]

-- TERNARY(favorite == YES, specialCount, 0) > 7
CASE WHEN t0.`favorite` = ? THEN t0.`specialCount` ELSE ? END > ?
-- bindings: [1, 0, 7]

-- TERNARY(rating == nil, 0, rating) >= 4
CASE WHEN t0.`rating` IS NULL THEN ? ELSE t0.`rating` END >= ?
-- bindings: [0, 4]

-- lowercase:(name) == 'red bar'
LOWER(t0.`name`) = ?
-- bindings: ['red bar']

-- uppercase:(name) BEGINSWITH 'RED'
UPPER(t0.`name`) LIKE ? ESCAPE CHAR(92)
-- bindings: ['RED%']

-- SELF.name == 'Red bar'
t0.`name` = ?
-- bindings: ['Red bar']

-- name == %@ AND distance < %@  args: "Red bar", 2.5
(t0.`name` = ? AND t0.`distance` < ?)
-- bindings: ['Red bar', 2.5]

-- CAST(rating, 'NSString') == '4.5'
-- refused: unsupported-in-sql: CAST(…, "NSString") of double cannot be compiled for mysql

-- CAST(specialCount, 'NSString') == '5'
(CAST(t0.`specialCount` AS CHAR) COLLATE utf8mb4_nopad_bin) = ?
-- bindings: ['5']

-- CAST(favorite, 'NSString') == '1'
(CAST(t0.`favorite` AS CHAR) COLLATE utf8mb4_nopad_bin) = ?
-- bindings: ['1']

-- CAST(code, 'NSNumber') > 1
-- refused: unsupported-in-sql: CAST(…, "NSNumber") of string cannot be compiled for mysql

-- CAST(favorite, 'NSNumber') == 1
t0.`favorite` = ?
-- bindings: [1]

-- CAST(createdAt, 'NSDate') < %@  args: {"$date": "2023-11-14T22:13:20Z"}
CAST(t0.`createdAt` AS DOUBLE) < ?
-- bindings: [721692800.0]

-- FUNCTION(name, 'length') > 3
`sift`.sift_utf16_length(t0.`name`) > ?
-- bindings: [3]

-- FUNCTION(name, 'uppercaseString') == 'RED BAR'
UPPER(t0.`name`) = ?
-- bindings: ['RED BAR']

-- FUNCTION(rating, 'intValue') == 4
-- refused: unsupported-in-sql: trunc is not available on mysql

-- FUNCTION(favorite, 'boolValue') == YES
CASE WHEN t0.`favorite` IS NULL THEN ? ELSE CASE WHEN NOT (t0.`favorite` <=> ?) THEN ? ELSE ? END END = ?
-- bindings: [NULL, 0, 1, 0, 1]

-- FUNCTION(tags, 'count') == 2
t0.`__sift_count_tags` = ?
-- bindings: [2]

-- fetch: location.city == 'Oslo' (a semi-join)
SELECT COUNT(*) FROM `venue` t0 WHERE t0.`location_id` IN (SELECT t1.`id` FROM `location` t1 WHERE t1.`city` = ?)
-- bindings: ['Oslo']

-- fetch: location.city == nil OR name == 'x' (a left join)
SELECT COUNT(*) FROM `venue` t0 LEFT JOIN `location` t1 ON t1.`id` = t0.`location_id` WHERE (t1.`city` IS NULL OR t0.`name` = ?)
-- bindings: ['x']

-- fetch: location.city ==[c] 'oslo' AND NOT (location.zip == '1') (semi-joins)
SELECT t0.`id`, t0.`code`, t0.`createdAt`, t0.`distance`, t0.`favorite`, t0.`name`, t0.`phone`, t0.`priceCategory`, t0.`rating`, t0.`specialCount`, t0.`tipCount` FROM `venue` t0 WHERE (t0.`location_id` IN (SELECT t1.`id` FROM `location` t1 WHERE (`sift`.sift_fold(t1.`city`, 1) COLLATE utf8mb4_nopad_bin) = ?) AND (t0.`location_id` IN (SELECT t2.`id` FROM `location` t2 WHERE t2.`zip` = ?)) IS NOT TRUE) ORDER BY t0.`id` ASC
-- bindings: ['oslo', '1']

-- fetch: NOT (location.city == 'Oslo') (a negated semi-join)
SELECT COUNT(*) FROM `venue` t0 WHERE (t0.`location_id` IN (SELECT t1.`id` FROM `location` t1 WHERE t1.`city` = ?)) IS NOT TRUE
-- bindings: ['Oslo']

-- fetch: location.distance < distance AND location.zip == nil (one left join)
SELECT COUNT(*) FROM `venue` t0 LEFT JOIN `location` t1 ON t1.`id` = t0.`location_id` WHERE (t1.`distance` < t0.`distance` AND t1.`zip` IS NULL)
-- bindings: []

-- fetch: ANY menu.price < location.distance (a left join the subselect refers to)
SELECT COUNT(*) FROM `venue` t0 LEFT JOIN `location` t2 ON t2.`id` = t0.`location_id` WHERE EXISTS (SELECT 1 FROM `menu_item` t1 WHERE (t1.`venue_id` = t0.`id` AND t1.`price` < t2.`distance`))
-- bindings: []

-- fetch: location.city == 'Oslo', sorted by location.city, distinct cities
SELECT DISTINCT (SELECT t2.`city` FROM `location` t2 WHERE t2.`id` = t0.`location_id`) FROM `venue` t0 LEFT JOIN `location` t1 ON t1.`id` = t0.`location_id` WHERE t1.`city` IS NOT NULL ORDER BY ((SELECT t2.`city` FROM `location` t2 WHERE t2.`id` = t0.`location_id`) IS NULL) DESC, (SELECT t2.`city` FROM `location` t2 WHERE t2.`id` = t0.`location_id`) ASC
-- bindings: []

-- fetch: distance < 5, sort name[c], rating desc, limit 10 offset 20
SELECT t0.`id`, t0.`code`, t0.`createdAt`, t0.`distance`, t0.`favorite`, t0.`name`, t0.`phone`, t0.`priceCategory`, t0.`rating`, t0.`specialCount`, t0.`tipCount` FROM `venue` t0 WHERE t0.`distance` < ? ORDER BY ((`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) IS NULL) DESC, (`sift`.sift_fold(t0.`name`, 1) COLLATE utf8mb4_nopad_bin) ASC, (t0.`rating` IS NULL) ASC, t0.`rating` DESC, t0.`id` ASC LIMIT ? OFFSET ?
-- bindings: [5, 10, 20]

-- fetch: sort rating nulls last, localized name
-- refused: unsupported-in-sql: localizedStandardCompare: has no SQL equivalent in every dialect; evaluate it in memory

-- fetch: count with limit
SELECT COUNT(*) FROM (SELECT 1 FROM `venue` t0 WHERE t0.`rating` > ? LIMIT ?) AS s
-- bindings: [1, 3]

-- fetch: offset without limit
SELECT t0.`id` AS `id` FROM `venue` t0 ORDER BY t0.`id` ASC LIMIT ? OFFSET ?
-- bindings: [9223372036854775807, 2]

-- fetch: properties name, location.city
SELECT t0.`name` AS `name`, (SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) AS `location.city` FROM `venue` t0 WHERE t0.`favorite` = ? ORDER BY t0.`id` ASC
-- bindings: [1]

-- fetch: indices
SELECT t0.`__sift_index` FROM `venue` t0 WHERE (EXISTS (SELECT 1 FROM `venue__tags` t1 WHERE (t1.`owner` = t0.`id` AND t1.`value` = ?)) AND t0.`__sift_index` IS NOT NULL) ORDER BY t0.`__sift_index` ASC
-- bindings: ['wifi']

-- fetch: aggregates grouped by priceCategory
SELECT t0.`priceCategory` AS `priceCategory`, COUNT(*) AS `count()`, COALESCE(SUM(t0.`tipCount`), 0) AS `sum(tipCount)`, (SUM(CAST(t0.`rating` AS DOUBLE)) / NULLIF(COUNT(t0.`rating`), 0)) AS `avg(rating)`, MIN(t0.`name`) AS `min(name)`, MAX(t0.`distance`) AS `max(distance)` FROM `venue` t0 WHERE t0.`distance` < ? GROUP BY t0.`priceCategory` ORDER BY (t0.`priceCategory` IS NULL) DESC, t0.`priceCategory` ASC
-- bindings: [10]

-- fetch: aggregates grouped by location.city
SELECT (SELECT t2.`city` FROM `location` t2 WHERE t2.`id` = t0.`location_id`) AS `location.city`, COUNT(*) AS `count()` FROM `venue` t0 LEFT JOIN `location` t1 ON t1.`id` = t0.`location_id` WHERE t1.`city` IS NOT NULL GROUP BY (SELECT t2.`city` FROM `location` t2 WHERE t2.`id` = t0.`location_id`) ORDER BY ((SELECT t2.`city` FROM `location` t2 WHERE t2.`id` = t0.`location_id`) IS NULL) DESC, (SELECT t2.`city` FROM `location` t2 WHERE t2.`id` = t0.`location_id`) ASC
-- bindings: []

-- fetch: expressions
SELECT (t0.`distance` * ?) AS `distance * 2`, t0.`__sift_count_tags` AS `tags.@count` FROM `venue` t0 ORDER BY t0.`id` ASC
-- bindings: [2]

-- sum:(tipCount) over a page
SELECT COALESCE(SUM(t0.`tipCount`), 0) AS `sum(tipCount)` FROM `venue` t0 WHERE t0.`id` IN (SELECT * FROM (SELECT t0.`id` AS `id` FROM `venue` t0 WHERE t0.`distance` < ? ORDER BY t0.`id` ASC LIMIT ?) sift_page)
-- bindings: [5, 5]

-- batch update
UPDATE `venue` AS t0 SET `favorite` = ?, `tipCount` = (t0.`tipCount` + ?) WHERE t0.`rating` IS NULL
-- bindings: [0, 1]

-- batch delete, statement 1
DELETE t0 FROM `venue` AS t0 WHERE (t0.`tipCount` < ? AND (SELECT t1.`city` FROM `location` t1 WHERE t1.`id` = t0.`location_id`) = ?)
-- bindings: [10, 'x']

-- batch delete, statement 2
DELETE FROM `venue__scores` WHERE NOT EXISTS (SELECT 1 FROM `venue` p WHERE p.`id` = `venue__scores`.`owner`)
-- bindings: []

-- batch delete, statement 3
DELETE FROM `venue__tags` WHERE NOT EXISTS (SELECT 1 FROM `venue` p WHERE p.`id` = `venue__tags`.`owner`)
-- bindings: []

-- batch delete, statement 4
UPDATE `menu_item` SET `venue_id` = NULL WHERE `menu_item`.`venue_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `venue` p WHERE p.`id` = `menu_item`.`venue_id`)
-- bindings: []

-- == A database Sift did not create: ExistingEvents.schema, entity event

-- title == %@  args: "Launch"
(t0.`title` = ? AND (t0.`title` COLLATE utf8mb4_nopad_bin) = ?)
-- bindings: ['Launch', 'Launch']

-- title BEGINSWITH[c] 'la'
(`sift`.sift_fold((t0.`title` COLLATE utf8mb4_nopad_bin), 1) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['la%']

-- title CONTAINS[cd] 'cafe'
(`sift`.sift_fold((t0.`title` COLLATE utf8mb4_nopad_bin), 3) COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92)
-- bindings: ['%cafe%']

-- at_unix > %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0.`at_unix` > ?
-- bindings: [1700000000.0]

-- at_unix_int <= %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0.`at_unix_int` <= ?
-- bindings: [1700000000]

-- at_2001 < %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0.`at_2001` < ?
-- bindings: [721692800.0]

-- at_ms BETWEEN %@  args: [{"$date": "2020-09-13T12:26:40Z"}, {"$date": "2027-01-15T08:00:00Z"}]
(t0.`at_ms` >= ? AND t0.`at_ms` <= ?)
-- bindings: [1600000000000, 1800000000000]

-- at_iso >= %@  args: {"$date": "2023-11-14T22:13:20.500Z"}
(t0.`at_iso` >= ? AND t0.`at_iso` <> ?)
-- bindings: ['2023-11-14T22:13:20.500', '2023-11-14T22:13:20Z']

-- at_sqlite == %@  args: {"$date": "2023-11-14T22:13:20Z"}
(t0.`at_sqlite` >= ? AND t0.`at_sqlite` <= ?)
-- bindings: ['2023-11-14 22:13:20', '2023-11-14 22:13:20.000']

-- CAST(at_iso, 'NSNumber') > 0
(ROUND((julianday(t0.`at_iso`) - 2440587.5) * 86400000.0) / 1000.0 - 978307200) > ?
-- bindings: [0]

-- FUNCTION(at_2001, 'timeIntervalSince1970') > 1700000000
(CAST(t0.`at_2001` AS DOUBLE) + ?) > ?
-- bindings: [978307200, 1700000000]

-- on_day == %@  args: {"$date": "2023-11-15T00:00:00Z"}
t0.`on_day` = ?
-- bindings: ['2023-11-15']

-- at_tz > %@  args: {"$date": "2023-11-14T22:13:20Z"}
(t0.`at_tz` > ? AND t0.`at_tz` <> ?)
-- bindings: ['2023-11-14T22:13:20.000Z', '2023-11-14T22:13:20Z']

-- at_ts < %@  args: {"$date": "2023-11-14T22:13:20Z"}
t0.`at_ts` < ?
-- bindings: ['2023-11-14 22:13:20']

-- at_ms == nil
t0.`at_ms` IS NULL
-- bindings: []

-- ANY tags == 'wifi'
EXISTS (SELECT 1 FROM json_each(t0.`tags`) t1 WHERE t1.`value` = ?)
-- bindings: ['wifi']

-- tags.@count > 1
json_array_length(t0.`tags`) > ?
-- bindings: [1]

-- ALL scores > 1
NOT EXISTS (SELECT 1 FROM json_each(t0.`scores`) t1 WHERE (t1.`value` > ?) IS NOT TRUE)
-- bindings: [1]

-- weights.@sum > 1.5
CASE WHEN t0.`weights` IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(t1.`value`), 0) FROM json_each(t0.`weights`) t1 WHERE 1 = 1) END > ?
-- bindings: [1.5]

-- ANY jtags ==[c] 'A'
EXISTS (SELECT 1 FROM json_each(t0.`jtags`) t1 WHERE (`sift`.sift_fold(t1.`value`, 1) COLLATE utf8mb4_nopad_bin) = ?)
-- bindings: ['a']

-- price > 10.5
t0.`price` > ?
-- bindings: [10.5]

-- flag == YES
t0.`flag` = ?
-- bindings: [1]

-- code == %@  args: "00000000-0000-0000-0000-000000000001"
(t0.`code` = ? AND (t0.`code` COLLATE utf8mb4_nopad_bin) = ?)
-- bindings: ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000001']

-- venue.name == 'Hall'
t0.`venue_id` IN (SELECT t1.`id` FROM `venue` t1 WHERE (t1.`name` = ? AND (t1.`name` COLLATE utf8mb4_nopad_bin) = ?))
-- bindings: ['Hall', 'Hall']

-- venue == nil
t0.`venue_id` IS NULL
-- bindings: []

-- venue.name == nil OR flag == NO
(((SELECT t1.`name` FROM `venue` t1 WHERE t1.`id` = t0.`venue_id`) COLLATE utf8mb4_nopad_bin) IS NULL OR t0.`flag` = ?)
-- bindings: [0]

-- ANY tickets.seat BEGINSWITH 'A'
EXISTS (SELECT 1 FROM `ticket` t1 WHERE (t1.`event_id` = t0.`id` AND (t1.`seat` LIKE ? ESCAPE CHAR(92) AND (t1.`seat` COLLATE utf8mb4_nopad_bin) LIKE ? ESCAPE CHAR(92))))
-- bindings: ['A%', 'A%']

-- ANY performers.name == 'Ada'
EXISTS (SELECT 1 FROM `event_performer` j1 JOIN `performer` t2 ON t2.`id` = j1.`performer_id` WHERE (j1.`event_id` = t0.`id` AND (t2.`name` = ? AND (t2.`name` COLLATE utf8mb4_nopad_bin) = ?)))
-- bindings: ['Ada', 'Ada']

-- SUBQUERY(tickets, $t, $t.seat != nil).@count > 1
(SELECT COUNT(*) FROM `ticket` t1 WHERE (t1.`event_id` = t0.`id` AND (t1.`seat` COLLATE utf8mb4_nopad_bin) IS NOT NULL)) > ?
-- bindings: [1]

-- tickets.@count == 0
(SELECT COUNT(*) FROM `ticket` t1 WHERE t1.`event_id` = t0.`id`) = ?
-- bindings: [0]

-- DDL
CREATE TABLE IF NOT EXISTS `location` (`id` BIGINT PRIMARY KEY, `city` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, `distance` DOUBLE, `zip` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, `__sift_index` BIGINT);
CREATE TABLE IF NOT EXISTS `menu_item` (`id` BIGINT PRIMARY KEY, `item` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, `price` DOUBLE, `vegan` TINYINT(1), `venue_id` BIGINT, `__sift_index` BIGINT);
CREATE TABLE IF NOT EXISTS `venue` (`id` BIGINT PRIMARY KEY, `code` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, `createdAt` BIGINT, `distance` DOUBLE, `favorite` TINYINT(1), `name` VARCHAR(768) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, `phone` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, `priceCategory` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, `rating` DOUBLE, `specialCount` BIGINT, `tipCount` BIGINT, `location_id` BIGINT, `__sift_count_scores` BIGINT, `__sift_count_tags` BIGINT, `__sift_count_menu` BIGINT, `__sift_index` BIGINT);
CREATE TABLE IF NOT EXISTS `venue__scores` (`owner` BIGINT NOT NULL, `position` BIGINT NOT NULL, `value` BIGINT, PRIMARY KEY (`owner`, `position`));
CREATE TABLE IF NOT EXISTS `venue__tags` (`owner` BIGINT NOT NULL, `position` BIGINT NOT NULL, `value` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, PRIMARY KEY (`owner`, `position`));
CREATE INDEX IF NOT EXISTS `menu_item__venue_id__idx` ON `menu_item` (`venue_id`);
CREATE INDEX IF NOT EXISTS `venue__distance__idx` ON `venue` (`distance`);
CREATE INDEX IF NOT EXISTS `venue__name__idx` ON `venue` (`name`);
CREATE INDEX IF NOT EXISTS `venue__location_id__idx` ON `venue` (`location_id`);
