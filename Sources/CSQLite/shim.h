#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call; this wrapper takes one int option.
static inline int sift_sqlite3_db_config_int(sqlite3 *db, int op, int value) {
  return sqlite3_db_config(db, op, value, (int *)0);
}

// A VFS that never creates a database, WAL or journal file: it is the default VFS with
// SQLITE_OPEN_CREATE removed from those opens (temporary files are still created, in the
// temporary directory). Sift reads users' files through it, with `readonly_shm=1` in the URI
// so the -shm is never created or written either. The struct is a copy of the default VFS, so
// every other method (and pAppData, which the unix VFS's xOpen reads) is the default's own.
// (Function-local statics: Swift emits an inline function's body with them, not file statics.)
static inline sqlite3_vfs *sift_untouched_vfs(void) {
  static sqlite3_vfs vfs;
  return &vfs;
}

static inline sqlite3_vfs **sift_untouched_base(void) {
  static sqlite3_vfs *base;
  return &base;
}

static inline int sift_untouched_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out) {
  (void)vfs;
  sqlite3_vfs *base = *sift_untouched_base();
  const int userFiles = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL;
  if (flags & userFiles) flags &= ~SQLITE_OPEN_CREATE;
  return base->xOpen(base, name, file, flags, out);
}

// Registers the VFS named `sift-untouched` once (call it from one thread, or under a lock);
// returns SQLITE_OK when it is available.
static inline int sift_register_untouched_vfs(void) {
  if (sqlite3_vfs_find("sift-untouched")) return SQLITE_OK;
  sqlite3_vfs *base = sqlite3_vfs_find(0);
  if (!base) return SQLITE_ERROR;
  *sift_untouched_base() = base;
  sqlite3_vfs *vfs = sift_untouched_vfs();
  *vfs = *base;
  vfs->pNext = 0;
  vfs->zName = "sift-untouched";
  vfs->xOpen = sift_untouched_open;
  return sqlite3_vfs_register(vfs, 0);
}
