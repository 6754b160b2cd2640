-- Golden SQL on a Core Data store (Library). Re-record: RECORD_GOLDEN=1 swift test --filter CoreDataGoldenTests

-- Item: TRUEPREDICATE
1 = 1
-- bindings: []
-- Z_PK: [1, 2, 3, 4, 5]

-- Book: TRUEPREDICATE
t0."Z_ENT" IN (?, ?, ?)
-- bindings: [3, 4, 5]
-- Z_PK: [1, 2, 3, 4, 5]

-- Novel: TRUEPREDICATE
t0."Z_ENT" IN (?)
-- bindings: [5]
-- Z_PK: [2, 3]

-- Comic: TRUEPREDICATE
t0."Z_ENT" IN (?)
-- bindings: [4]
-- Z_PK: [4]

-- Novel: genre ==[c] 'fantasy'
(t0."Z_ENT" IN (?) AND sift_fold(t0."ZGENRE", 1) = ?)
-- bindings: [5, 'fantasy']
-- Z_PK: [2, 3]

-- Book: pages > 250
(t0."Z_ENT" IN (?, ?, ?) AND t0."ZPAGES" > ?)
-- bindings: [3, 4, 5, 250]
-- Z_PK: [1, 2]

-- Comic: illustrator BEGINSWITH 'Sam'
(t0."Z_ENT" IN (?) AND (t0."ZILLUSTRATOR" >= ? AND t0."ZILLUSTRATOR" < ?))
-- bindings: [4, 'Sam', 'San']
-- Z_PK: [4]

-- Book: inPrint == YES
(t0."Z_ENT" IN (?, ?, ?) AND t0."ZINPRINT" = ?)
-- bindings: [3, 4, 5, 1]
-- Z_PK: [1, 2, 4]

-- Book: inPrint == nil
(t0."Z_ENT" IN (?, ?, ?) AND t0."ZINPRINT" IS NULL)
-- bindings: [3, 4, 5]
-- Z_PK: [5]

-- Item: createdAt < %@  args: {"$date": "2001-01-01T00:00:00Z"}
t0."ZCREATEDAT" < ?
-- bindings: [0.0]
-- Z_PK: [3]

-- Item: createdAt == nil
t0."ZCREATEDAT" IS NULL
-- bindings: []
-- Z_PK: [5]

-- Author: born < %@  args: {"$date": "2001-01-01T00:00:00Z"}
t0."ZBORN" < ?
-- bindings: [0.0]
-- Z_PK: [1, 2]

-- Item: ANY tags.name == 'fantasy'
EXISTS (SELECT 1 FROM "Z_2TAGS" j1 JOIN "ZTAG" t2 ON t2."Z_PK" = j1."Z_8TAGS" WHERE (j1."Z_2ITEMS" = t0."Z_PK" AND t2."ZNAME" = ?))
-- bindings: ['fantasy']
-- Z_PK: [2, 3, 4]

-- Item: tags.@count == 0
(SELECT COUNT(*) FROM "Z_2TAGS" j1 JOIN "ZTAG" t2 ON t2."Z_PK" = j1."Z_8TAGS" WHERE j1."Z_2ITEMS" = t0."Z_PK") = ?
-- bindings: [0]
-- Z_PK: [1, 5]

-- Tag: ANY items.title == 'The Sandman'
EXISTS (SELECT 1 FROM "Z_2TAGS" j1 JOIN "ZITEM" t2 ON t2."Z_PK" = j1."Z_2ITEMS" WHERE (j1."Z_8TAGS" = t0."Z_PK" AND t2."ZTITLE" = ?))
-- bindings: ['The Sandman']
-- Z_PK: [1]

-- Book: ANY authors.name BEGINSWITH 'Neil'
(t0."Z_ENT" IN (?, ?, ?) AND EXISTS (SELECT 1 FROM "Z_1BOOKS" j1 JOIN "ZAUTHOR" t2 ON t2."Z_PK" = j1."Z_1AUTHORS" WHERE (j1."Z_3BOOKS" = t0."Z_PK" AND (t2."ZNAME" >= ? AND t2."ZNAME" < ?))))
-- bindings: [3, 4, 5, 'Neil', 'Neim']
-- Z_PK: [2, 4]

-- Book: SUBQUERY(authors, $a, $a.name CONTAINS 'Terry').@count > 0
(t0."Z_ENT" IN (?, ?, ?) AND (SELECT COUNT(*) FROM "Z_1BOOKS" j1 JOIN "ZAUTHOR" t2 ON t2."Z_PK" = j1."Z_1AUTHORS" WHERE (j1."Z_3BOOKS" = t0."Z_PK" AND instr(t2."ZNAME", ?) > 0)) > ?)
-- bindings: [3, 4, 5, 'Terry', 0]
-- Z_PK: [2, 3]

-- Author: books.@count == 0
(SELECT COUNT(*) FROM "Z_1BOOKS" j1 JOIN "ZITEM" t2 ON t2."Z_PK" = j1."Z_3BOOKS" WHERE (j1."Z_1AUTHORS" = t0."Z_PK" AND t2."Z_ENT" IN (?, ?, ?))) = ?
-- bindings: [3, 4, 5, 0]
-- Z_PK: [3]

-- Book: publisher.name == 'Gollancz'
(t0."Z_ENT" IN (?, ?, ?) AND t0."ZPUBLISHER" IN (SELECT t1."Z_PK" FROM "ZPUBLISHER" t1 WHERE t1."ZNAME" = ?))
-- bindings: [3, 4, 5, 'Gollancz']
-- Z_PK: [1, 2, 3]

-- Book: publisher == nil
(t0."Z_ENT" IN (?, ?, ?) AND t0."ZPUBLISHER" IS NULL)
-- bindings: [3, 4, 5]
-- Z_PK: [4, 5]

-- Publisher: books.@sum.pages == 831
(SELECT COALESCE(sift_sum(t1."ZPAGES"), 0) FROM "ZITEM" t1 WHERE (t1."ZPUBLISHER" = t0."Z_PK" AND t1."Z_ENT" IN (?, ?, ?))) = ?
-- bindings: [3, 4, 5, 831]
-- Z_PK: [1]

-- Item: notes.@count > 0
(SELECT COUNT(*) FROM "ZNOTE" t1 WHERE t1."ZITEM" = t0."Z_PK") > ?
-- bindings: [0]
-- Z_PK: [1, 3]

-- Book: title MATCHES[c] 'the .*'
(t0."Z_ENT" IN (?, ?, ?) AND sift_matches(t0."ZTITLE", ?, 1))
-- bindings: [3, 4, 5, 'the .*']
-- Z_PK: [4]

-- Book: title LIKE[cd] '*omens'
(t0."Z_ENT" IN (?, ?, ?) AND sift_like(t0."ZTITLE", ?, 3))
-- bindings: [3, 4, 5, '*omens']
-- Z_PK: [2]

-- Book: fetch: publisher.name == 'Gollancz'
SELECT t0."Z_PK", t0."ZCREATEDAT", t0."ZTITLE", t0."ZINPRINT", t0."ZPAGES" FROM "ZITEM" t0 WHERE (t0."Z_ENT" IN (?, ?, ?) AND t0."ZPUBLISHER" IN (SELECT t1."Z_PK" FROM "ZPUBLISHER" t1 WHERE t1."ZNAME" = ?)) ORDER BY t0."Z_PK" ASC
-- bindings: [3, 4, 5, 'Gollancz']
-- rows: [1 711102600 'Reference Manual' 1 300, 2 730980000 'Good Omens' 1 288, 3 -415584000 'Mort' 0 243]

-- Book: fetch: publisher.name == nil OR pages > 300, sorted by title
SELECT t0."Z_PK", t0."ZCREATEDAT", t0."ZTITLE", t0."ZINPRINT", t0."ZPAGES" FROM "ZITEM" t0 LEFT JOIN "ZPUBLISHER" t1 ON t1."Z_PK" = t0."ZPUBLISHER" WHERE (t0."Z_ENT" IN (?, ?, ?) AND (t1."ZNAME" IS NULL OR t0."ZPAGES" > ?)) ORDER BY t0."ZTITLE" ASC NULLS FIRST, t0."Z_PK" ASC
-- bindings: [3, 4, 5, 300]
-- rows: [4 759067200 'The Sandman' 1 200, 5 NULL 'Untitled' NULL NULL]

-- Novel: fetch: count of novels per genre
SELECT t0."ZGENRE" AS "genre", COUNT(*) AS "count()" FROM "ZITEM" t0 WHERE t0."Z_ENT" IN (?) GROUP BY t0."ZGENRE" ORDER BY t0."ZGENRE" ASC NULLS FIRST
-- bindings: [5]
-- rows: ['Fantasy' 1, 'fantasy' 1]

