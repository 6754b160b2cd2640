#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call; this wrapper takes one int option.
static inline int sift_sqlite3_db_config_int(sqlite3 *db, int op, int value) {
  return sqlite3_db_config(db, op, value, (int *)0);
}
