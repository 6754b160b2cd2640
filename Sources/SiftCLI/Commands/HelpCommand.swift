/// `sift help [COMMAND]` and `sift --help`: usage for every subcommand, with examples.
/// Every command's page is its `help` (`SiftSubcommand`), which `sift COMMAND --help` prints too.
enum HelpCommand: SiftSubcommand {
  static let name = "help"
  static let options = CommandOptions(valued: [], switches: [])
  static let help = """
    sift help [COMMAND]
    sift COMMAND --help      (or -h)
    sift --version

    Prints every command with examples, or one command's usage: its options, one line each,
    and an example. --help and -h work on every command, before a lone --.

    EXAMPLES
      sift help
      sift help eval
      sift eval --help
    """

  static func run(_ args: [String]) -> ExitStatus {
    guard let topic = args.first else {
      print(overview)
      return .success
    }
    guard args.count == 1 else {
      return CLIOutput.usageError("help takes one command, not \(args.count) words", command: "help")
    }
    guard let command = SiftCommandLine.command(named: topic) else {
      return CLIOutput.usageError("no help for '\(topic)'", suggestion: CLIOutput.closestCommand(topic))
    }
    print(command.help)
    return .success
  }

  static let overview = """
    sift — Apple's NSPredicate format strings on any platform: parse, evaluate, compile to SQL.

    USAGE
      sift                         start the REPL on the built-in sample data
      sift --db FILE.sqlite        the REPL on your SQLite file's tables (read-only; --write lets
                                   .insert/.update/.delete under .watch write to it)
      sift --postgres CONNINFO --pg-schema NAME
                                   the REPL on a PostgreSQL schema's tables (read-only)
      sift --mysql mysql://USER:PASSWORD@HOST:PORT/DATABASE
                                   the REPL on a MySQL/MariaDB database's tables (read-only)
      sift repl [OPTIONS]          the REPL (see 'sift help repl')
      sift parse 'FORMAT' …        print the canonical form or a diagnostic
      sift eval 'FORMAT' --data F  print the records of F that match
      sift expr 'EXPR' --data F    print an expression's value per record (--aggregate: over all)
      sift fetch --sample venues --where 'P' [--sort …] [--properties …] [--group-by …] …
                                   run a whole fetch request (JSON, a database) and print its rows
      sift sql 'FORMAT' --schema S --entity E
                                   print the SQL and its bindings
      sift batch …                 run JSON Lines cases from standard input
      sift load --data D --schema S --into NEW.sqlite
                                   copy JSON records into a new SQLite file Sift creates
      sift index --db F --fold TABLE.COLUMN [--options c|d|cd]
                                   create the sift_fold index [c]/[d] comparisons use
      sift setup-sql --dialect D [--postgres CONNINFO | --mysql URL] [--grant ROLE]
                                   Sift's SQL functions for PostgreSQL or MySQL (or how for SQLite)
      sift setup-sql --live --pg-schema S --entity T [--postgres CONNINFO] [--drop]
                                   live push mode's publication and replication slot
      sift --db STORE.sqlite [--model MODEL.xcdatamodeld]
                                   the REPL on a Core Data store's entities (read-only)
      sift schema --model M | --db FILE [--model M]
                                   print the schema as a schema file (JSON) for --schema
      sift watch 'FORMAT' --data F results that stay current: JSON Lines edits in, change sets out
      sift check 'FORMAT' --policy P.json
                                   check a client's filter against a query policy
      sift help COMMAND            details and examples for one command (or sift COMMAND --help, -h)
      sift --version               print the version

    EXAMPLES
      sift parse "name beginswith[c] %@" --arg '"blue"'
      sift eval "ANY tags == 'wifi' AND distance < 5" --data venues.json --count
      echo '{"id": 1, "format": "distance < %@", "args": [2]}' | sift batch --data venues.json

    A lone -- ends the options: sift parse -- '--x > 1' (a predicate starting with --).
    Exit status, every command: 0 success, 1 the predicate, data or database failed, 2 the
    command line was wrong (unknown option, missing argument, an option value that does not parse).
    """

  static let pages: [String: String] = [
    "expr": """
    sift expr 'EXPR' --data FILE.json [--aggregate] [--where 'P'] [--sort 'k asc, …'] [--limit N]
              [--offset N] [--arg JSON]... [--var NAME=JSON]... [--dates FORMAT]...
    sift expr 'EXPR' --schema S.json --entity E [--dialect sqlite|postgres] [same fetch options]

    Evaluates an expression (NSExpression format: key paths, arithmetic, functions, sum:, …)
    for each record the fetch selects (--where filters, --sort orders, then --offset and
    --limit page) and prints one JSON value per line. --aggregate evaluates it once over the
    whole fetch, SELF being the array of records, as Core Data's NSExpressionDescription:
    sum:(specialCount) prints the total. With --schema/--entity instead of --data, prints the
    same request compiled to SQL and its bindings. The expression's %@ take the first --arg
    values, --where's the rest.

      --data FILE        the records, as for 'sift eval'
      --aggregate        evaluate once over the whole fetch (SELF is the array of records)
      --where 'P'        a predicate the records must match
      --sort 'K asc, …'  sort descriptors ([c], [l], nulls first|last as well)
      --limit N          at most N records (after --offset)
      --offset N         skip the first N records of the fetch
      --arg JSON         an argument for the next format specifier (expression's, then --where's)
      --var N=JSON       a value for $N
      --dates F          which values are dates, as for 'sift eval'
      --schema S.json    with --entity: print the SQL instead of evaluating
      --entity E         the entity to select from (with --schema)
      --dialect D        sqlite (default) or postgres (with --schema)

    EXAMPLES
      sift expr 'name' --data venues.json --sort 'rating desc, name' --limit 3
      sift expr 'sum:(specialCount)' --data venues.json --aggregate
      sift expr 'sum:(specialCount)' --schema schema.json --entity Venue --aggregate
    """,
    "schema": SchemaCommand.help,
    "watch": WatchCommand.help,
    "check": CheckCommand.help,
    "parse": """
    sift parse 'FORMAT' [--arg JSON]... [--json]

    Parses a predicate, binds %@/%K/%d… arguments in order, and prints the canonical form
    (Apple's predicateFormat style). On an error prints the diagnostic with a caret under the
    spot and exits 1. Warnings (such as an unparenthesised AND/OR mix) go to standard error.

      --arg JSON   an argument for the next format specifier, as JSON: '"text"', 42, 2.5,
                   true, null, '[1, 2]', '{"$date": "2024-03-01T00:00:00Z"}'
      --json       print the syntax tree as JSON instead

    EXAMPLES
      sift parse "a = 1 and b like[c] 'x*'"          # a == 1 AND b LIKE[c] "x*"
      sift parse "%K > %@" --arg '"tipCount"' --arg 100
      sift parse "tags.@count > 2" --json
    """,
    "eval": """
    sift eval 'FORMAT' --data FILE.json [--arg JSON]... [--var NAME=JSON]... [--dates FORMAT]...
              [--count] [--lenient]

    Evaluates a predicate over every record of FILE.json (an array of objects or plain values,
    or JSON Lines) and prints the matching records as JSON lines, or their number with --count.
    A plain value ("Do", 42, true, null) is evaluated as SELF.

      --data FILE    the records; numbers without a fraction are integers,
                     {"$date": "ISO 8601"} is a date
      --arg JSON     an argument for the next format specifier
      --var N=JSON   a value for $N
      --dates F      which other values are dates, like JSONDecoder's date strategy:
                     iso8601 (every ISO-8601 date-time string), seconds or milliseconds
                     (since 1970: every number), KEY=FORMAT for one key path (repeat it;
                     then a value that does not fit is an error), or FILE.json holding
                     {"createdAt": "iso8601", "*": "seconds"}; also on expr, batch, watch,
                     load and the REPL's .load
      --count        print only how many records match
      --lenient      a record whose evaluation fails does not match (default: the run fails)

    EXAMPLES
      sift eval "name BEGINSWITH[c] 'blue'" --data venues.json
      sift eval "SUBQUERY(menu, $m, $m.vegan == YES).@count > 1" --data venues.json --count
      sift eval "distance < $MAX" --var MAX=2.5 --data venues.json
      sift eval "at > CAST('2024-03-01T00:00:00Z', 'NSDate')" --data api.json --dates iso8601
      sift eval 'at > %@' --arg '{"$date": "2024-03-01T00:00:00Z"}' --data log.json --dates at=milliseconds
      sift eval "SELF BEGINSWITH[c] 'd'" --data notes.json     # notes.json: ["Do", "Re", "Mi"]
    """,
    "sql": """
    sift sql 'FORMAT' --schema S.json --entity E [--dialect sqlite|postgres|mysql] [--arg JSON]...
    sift sql 'FORMAT' --db FILE.sqlite --entity TABLE [--schema S.json] [--arg JSON]...
    sift sql 'FORMAT' --postgres CONNINFO --pg-schema NAME --entity TABLE [--arg JSON]...
    sift sql 'FORMAT' --mysql mysql://USER:PASSWORD@HOST:PORT/DATABASE --entity TABLE [--arg JSON]...

    Compiles a predicate into a parameterized SELECT for one entity of a schema and prints the
    SQL and its bindings. No value ever appears in the SQL text. With --db, --pg-schema or --mysql the
    schema is read from that database (read-only; --schema then overrides or adds) and the
    dialect is the database's.

      --schema S.json   entities, tables, attributes, relationships (format in README.md)
      --entity E        the entity to select
      --db FILE         read the schema from an SQLite file (or a Core Data store)
      --model M         with --db on a Core Data store: its .xcdatamodeld
      --configuration C with --model: only configuration C's entities (the model's <configuration>)
      --postgres C      with --pg-schema NAME: read the schema from that PostgreSQL schema
      --pg-schema NAME  the PostgreSQL schema to read
      --mysql URL       read the schema from the URL's MySQL/MariaDB database
      --dialect D       sqlite (default, '?' placeholders), postgres ('$1') or mysql ('?', backticks)
      --arg JSON        an argument for the next format specifier
      --var N=JSON      a value for $N
      --json            print {"sql", "bindings", "functions"} as one JSON object

    EXAMPLE
      sift sql "name BEGINSWITH %@ AND ANY menu.price < 5" --arg '"Blue"' \\
        --schema venues.schema.json --entity Venue --dialect postgres
    """,
    "batch": """
    sift batch [--data D.json [--dates FORMAT]...] [--schema S.json --entity E] [--postgres CONNINFO] [--lenient]
               [--policy POLICY.json]
    sift batch --db FILE.sqlite --entity TABLE [--schema S.json]
    sift batch --db STORE.sqlite [--model MODEL.xcdatamodeld] --entity ENTITY
    sift batch --postgres CONNINFO --pg-schema NAME --entity TABLE [--schema S.json]
    sift batch --mysql mysql://USER:PASSWORD@HOST:PORT/DATABASE --entity TABLE [--schema S.json]
    sift batch (--db FILE.sqlite | --postgres CONNINFO --pg-schema NAME | --mysql URL) --entity TABLE --write

    Reads one JSON case per line from standard input and writes one JSON result per line:
      in:  {"id": …, "format": "…", "args": [JSON…], "variables": {"NAME": JSON}}
      out: {"id": …, "ok": true, "canonical": "…"}
           {"id": …, "ok": false, "stage": "input"|"parse"|"arguments"|"policy"|"evaluate"|"sql",
            "error": {"id", "message", "line", "column", "offset"}}
    With --policy POLICY.json each case's format is a client's filter: checked against the
    policy (sift help check), the policy's "require" ANDed around it with the case's
    "variables" as the server's, its limit capped and its time limited; refusals have
    "stage": "policy".
    With --data, ok lines add "matches": [record indices]. With --schema and --entity they add
    "sql", "bindings" and "sqlMatches" (from an in-memory SQLite database loaded with D); with
    --postgres CONNINFO also "pgMatches". With --db, --pg-schema or --mysql the cases run on that
    database, read-only, and ok lines add "rows" (the matching rows' primary-key values,
    ascending), "sql" and "bindings"; a table without a one-column primary key answers each
    case with an error at stage "sql". On a Core Data store (see 'sift help schema') "rows" are
    the matching objects' Z_PK values, ascending.
    A case may add "sort": "key asc, key2 desc" ([c], [l], nulls first|last as well), "limit"
    and "offset": then matches, sqlMatches, pgMatches (and rows) come in the fetch's order.
    Write cases (NSBatchUpdateRequest, NSBatchDeleteRequest, NSBatchInsertRequest) run only with
    --write, each as one transaction; without it they are refused ("read-only"):
      {"id": 1, "delete": true, "format": "rating < %@", "args": [2]}
      {"id": 2, "update": {"open": false, "visits": {"expression": "visits + 1"}}, "format": "…"}
      {"id": 3, "insert": [{"id": 7, "name": "Blue"}], "result": "ids"}
    They answer "count" (rows changed), with "result": "ids" also "ids" (their keys), with
    "result": "status" only "ok".

      --data D.json     the records each case is evaluated on ("matches")
      --dates F         which values of D.json are dates, as for 'sift eval'
      --schema S.json   with --entity: compile each case to SQL ("sql", "sqlMatches")
      --entity E        the entity (or, with --db/--pg-schema/--mysql, the table) the cases select
      --postgres C      also run on PostgreSQL ("pgMatches"); with --pg-schema: that database
      --pg-schema NAME  run the cases on that PostgreSQL schema's tables, read-only
      --mysql URL       run the cases on the URL's MySQL/MariaDB database, read-only ("rows")
      --db FILE         run the cases on an SQLite file or Core Data store, read-only ("rows")
      --model M         with --db on a Core Data store: its .xcdatamodeld
      --configuration C with --model: only configuration C's entities (the model's <configuration>)
      --policy P.json   check each case's format against a query policy (sift help check)
      --lenient         a record whose evaluation fails does not match (default: the case fails)
      --write           with --db/--pg-schema/--mysql: open it for writing and run update/delete/insert cases
                        (not with --policy, which governs clients' reads)

    EXAMPLES
      sift batch --data venues.json < cases.jsonl
      echo '{"id": 1, "format": "rating > 4", "sort": "rating desc, name", "limit": 3}' | sift batch --data venues.json
      echo '{"id": 1, "format": "ANY tag.label == %@", "args": ["urgent"]}' | sift batch --db notes.sqlite --entity note
      echo '{"id": 1, "delete": true, "format": "done == 1"}' | sift batch --db notes.sqlite --entity note --write
    """,
    "load": """
    sift load --data D.json --schema S.json --into NEW.sqlite [--entity E] [--replace]

    Copies JSON records into a new SQLite file that Sift creates with the schema's tables (its
    own layout), the only command that writes a database. It refuses a file that exists; with
    --replace it deletes and recreates it. The file appears only once every record is in.
    --entity names the records' entity (needed when the schema has several).

    The file has Sift's own layout (side tables for arrays, __sift_ columns): query it with the
    same schema file, --db venues.sqlite --schema venues.schema.json.

      --data D.json     the records (JSON array or JSON Lines), every one an object
      --dates F         which values are dates, as for 'sift eval'
      --schema S.json   the tables to create (format in README.md)
      --entity E        the records' entity (needed when the schema has several)
      --into NEW.sqlite the file to create
      --replace         delete NEW.sqlite first when it exists

    EXAMPLE
      sift load --data venues.json --schema venues.schema.json --entity Venue --into venues.sqlite
      sift --db venues.sqlite --schema venues.schema.json --entity Venue -c ".count ANY tags == 'wifi'"
    """,
    "index": """
    sift index --db FILE.sqlite --fold TABLE.COLUMN [--options c|d|cd]

    Creates the expression index [c]/[d] comparisons use, sift_fold(COLUMN, 1|2|3), on a table
    of your SQLite file (an explicit write, one transaction; default --options c). ==, IN and
    BEGINSWITH with those options are then served by it. Refuses a file that is missing,
    read-only or a Core Data store, and a table or column the file does not have. Every program
    that later writes the table needs Sift's SQL functions (SQLite computes the index on each
    write): SiftSQLite registers them; see sift help setup-sql.

      --db FILE.sqlite       the SQLite file to write the index into (it must exist)
      --fold TABLE.COLUMN    the column the index folds
      --options c|d|cd       [c] (default), [d] or both

    EXAMPLE
      sift index --db notes.sqlite --fold note.title --options c
      sift --db notes.sqlite -c ".plan title BEGINSWITH[c] 'meet'"
    """,
    "setup-sql": """
    sift setup-sql --dialect postgres|mysql|sqlite [--postgres CONNINFO | --mysql URL] [--grant ROLE]
    sift setup-sql --live [--pg-schema S] --entity TABLE... [--slot NAME] [--postgres CONNINFO]
    sift setup-sql --live --drop [--slot NAME] [--postgres CONNINFO]

    postgres: prints the idempotent migration (CREATE SCHEMA sift, CREATE OR REPLACE FUNCTION
    sift.sift_fold, …) that statements using [c]/[d], division and localized sorts need; run it
    once per database (the functions live in schema sift, whatever your search_path):
      sift setup-sql --dialect postgres | psql "$DATABASE_URL"
    or let sift run it (creates schema sift only; nothing when it is current):
      sift setup-sql --dialect postgres --postgres "$DATABASE_URL"
    It grants USAGE on schema sift and EXECUTE on its functions to PUBLIC, so a read-only
    application role can call them; --grant ROLE (repeatable, or ROLE,ROLE) grants them to
    those roles instead. Run it as a role that may create the schema (or owns it); any other
    role fails with sift-functions-privilege (exit 1) naming what it lacks.
    mysql: prints the statements (CREATE DATABASE IF NOT EXISTS sift, CREATE OR REPLACE
    FUNCTION sift.sift_fold, sift_idiv, sift_imod, sift_fdiv, sift_utf16_length) that statements
    using [c]/[d], integer division and length need, in the database sift that compiled SQL
    calls; run it once per server as a user that may create them:
      sift setup-sql --dialect mysql | mariadb -u root
    or with --mysql URL let sift run it on that server (the database sift only; nothing of the
    URL's database). Grant EXECUTE ON sift.* to the users that query.
    sqlite: SQLite keeps functions in the connection, so there is nothing to run; prints how
    to call SQLiteFunctions.register(on:) on a connection from any SQLite library.

      --dialect D     postgres, mysql or sqlite
      --postgres C    with --dialect postgres: run the setup on that database
      --mysql URL     with --dialect mysql: run the setup on that server
      --grant ROLE    grant the functions to ROLE instead of PUBLIC (repeatable, or ROLE,ROLE)

    With --live: what live results' push mode needs (read-only polling needs nothing): a publication
    for the tables and a logical replication slot with pgoutput, both named --slot (default
    sift_live); nothing else. The server needs wal_level = logical, a free slot and WAL sender
    (max_replication_slots, max_wal_senders), and the role REPLICATION and ownership of the
    tables. Each table needs a primary key (REPLICA IDENTITY DEFAULT) or REPLICA IDENTITY FULL;
    a view is refused (live-push-setup): PostgreSQL cannot publish it, watch it read-only.
    --drop removes the slot and the publication. When push mode starts, an inactive slot that
    holds back over 1 GiB of WAL (or whose WAL is lost) is dropped, with a message.
      --live          push mode's setup instead of Sift's SQL functions
      --pg-schema S   the tables' schema (default public)
      --entity T      a table to publish (repeatable, or T,T)
      --table T       the same as --entity
      --slot NAME     the slot's and publication's name: a-z, 0-9, _ (default sift_live)
      --drop          remove the slot and the publication

    EXAMPLES
      sift setup-sql --dialect postgres | psql "$DATABASE_URL"
      sift setup-sql --dialect postgres --postgres "dbname=app"
      sift setup-sql --dialect mysql | mariadb -u root
      sift setup-sql --dialect sqlite
      sift setup-sql --live --pg-schema shop --entity product --postgres "dbname=app"
      sift setup-sql --live --drop --postgres "dbname=app"
    """,
  ]
}
