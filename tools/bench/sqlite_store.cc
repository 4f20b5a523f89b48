// SQLite, the usual do-it-yourself answer: WAL, synchronous=NORMAL, a table
// (id TEXT PRIMARY KEY, doc TEXT, access_time INTEGER) with an index on
// access_time, expression indexes on json_extract(doc, ...) for the extra
// secondary indexes, and expiry by DELETE in batches of 1000.
//   touch: UPDATE access_time (the column the application keeps for expiry;
//          the JSON text is not rewritten - in SQLite's favour);
//   get:   SELECT doc WHERE id = ? AND access_time > cutoff (hiding).
// Prepared statements throughout. The sweep uses its own connection so
// reads can run during it (WAL).
#include <sqlite3.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "tools/bench/bench_util.h"
#include "tools/bench/store.h"

namespace ttldb {
namespace bench {
namespace {

constexpr int kDeleteBatch = 1000;

class SqliteStore : public Store {
 public:
  void CompactAll() override {
    Exec(db_, "VACUUM");
    Exec(db_, "PRAGMA wal_checkpoint(TRUNCATE)");
  }
  const char* name() const override { return "sqlite"; }

  void Open(const std::string& dir, const StoreConfig& config) override {
    config_ = config;
    const std::string path = dir + "/bench.sqlite";
    db_ = OpenConnection(path);
    Exec(db_, "PRAGMA journal_mode=WAL");
    Exec(db_,
         "CREATE TABLE docs (id TEXT PRIMARY KEY, doc TEXT, "
         "access_time INTEGER)");
    Exec(db_, "CREATE INDEX docs_access_time ON docs(access_time)");
    if (config.extra_indexes == 2) {
      Exec(db_,
           "CREATE INDEX docs_user ON docs(json_extract(doc, '$.userId'))");
      Exec(db_,
           "CREATE INDEX docs_group ON docs(json_extract(doc, '$.group'))");
    }
    sweep_db_ = OpenConnection(path);
    insert_ = Prepare(db_, "INSERT INTO docs VALUES (?1, ?2, ?3)");
    touch_ = Prepare(db_, "UPDATE docs SET access_time = ?1 WHERE id = ?2");
    get_ =
        Prepare(db_, "SELECT doc FROM docs WHERE id = ?1 AND access_time > ?2");
    find_ = Prepare(db_,
                    "SELECT doc FROM docs WHERE json_extract(doc, '$.group') "
                    "= ?1 AND access_time > ?2");
    delete_ = Prepare(sweep_db_,
                      "DELETE FROM docs WHERE rowid IN (SELECT rowid FROM docs "
                      "WHERE access_time <= ?1 LIMIT ?2)");
  }

  void Close() override {
    for (sqlite3_stmt** s : {&insert_, &touch_, &get_, &find_, &delete_}) {
      sqlite3_finalize(*s);
      *s = nullptr;
    }
    sqlite3_close(sweep_db_);
    sqlite3_close(db_);
    db_ = sweep_db_ = nullptr;
  }

  void Insert(int64_t i, const std::string& json,
              int64_t access_millis) override {
    const std::string id = DocId(i);
    sqlite3_bind_text(insert_, 1, id.data(), id.size(), SQLITE_STATIC);
    sqlite3_bind_text(insert_, 2, json.data(), json.size(), SQLITE_STATIC);
    sqlite3_bind_int64(insert_, 3, access_millis);
    StepDone(insert_);
  }

  void Load(int64_t begin, int64_t end, int64_t (*access)(int64_t, void*),
            void* arg) override {
    std::string json;
    Exec(db_, "BEGIN");
    for (int64_t i = begin; i < end; ++i) {
      const int64_t a = access(i, arg);
      MakeDoc(i, a, config_.doc_bytes, &json);
      Insert(i, json, a);
      if ((i - begin) % 10000 == 9999) {
        Exec(db_, "COMMIT");
        Exec(db_, "BEGIN");
      }
    }
    Exec(db_, "COMMIT");
  }

  void Touch(int64_t i, int64_t now_millis, const std::string&) override {
    const std::string id = DocId(i);
    sqlite3_bind_int64(touch_, 1, now_millis);
    sqlite3_bind_text(touch_, 2, id.data(), id.size(), SQLITE_STATIC);
    StepDone(touch_);
    if (sqlite3_changes(db_) != 1) Die("sqlite touch missed " + id);
  }

  bool Get(int64_t i, int64_t now_millis) override {
    const std::string id = DocId(i);
    sqlite3_bind_text(get_, 1, id.data(), id.size(), SQLITE_STATIC);
    sqlite3_bind_int64(get_, 2, Cutoff(now_millis));
    int rc = sqlite3_step(get_);
    bool found = false;
    if (rc == SQLITE_ROW) {
      found = sqlite3_column_bytes(get_, 0) > 0;
      rc = sqlite3_step(get_);
    }
    if (rc != SQLITE_DONE) Die(sqlite3_errmsg(db_));
    sqlite3_reset(get_);
    return found;
  }

  int FindGroup(int64_t g, int64_t now_millis) override {
    sqlite3_bind_int64(find_, 1, g);
    sqlite3_bind_int64(find_, 2, Cutoff(now_millis));
    int n = 0;
    int rc;
    while ((rc = sqlite3_step(find_)) == SQLITE_ROW) {
      n += sqlite3_column_bytes(find_, 0) > 0;
    }
    if (rc != SQLITE_DONE) Die(sqlite3_errmsg(db_));
    sqlite3_reset(find_);
    return n;
  }

  int64_t Sweep(int64_t now_millis) override {
    int64_t deleted = 0;
    while (true) {
      sqlite3_bind_int64(delete_, 1, Cutoff(now_millis));
      sqlite3_bind_int64(delete_, 2, kDeleteBatch);
      int rc = sqlite3_step(delete_);
      if (rc != SQLITE_DONE) Die(sqlite3_errmsg(sweep_db_));
      sqlite3_reset(delete_);
      const int n = sqlite3_changes(sweep_db_);
      deleted += n;
      if (n == 0) return deleted;
    }
  }

 private:
  static int64_t Cutoff(int64_t now_millis) {
    return now_millis - kExpireAfterSeconds * 1000;
  }
  static sqlite3* OpenConnection(const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
      Die(absl::StrCat("sqlite open ", path, ": ", sqlite3_errmsg(db)));
    }
    sqlite3_busy_timeout(db, 10000);
    Exec(db, "PRAGMA synchronous=NORMAL");
    return db;
  }
  static void Exec(sqlite3* db, const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = absl::StrCat(sql, ": ", err ? err : "?");
      sqlite3_free(err);
      Die(msg);
    }
  }
  static sqlite3_stmt* Prepare(sqlite3* db, const char* sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
      Die(absl::StrCat(sql, ": ", sqlite3_errmsg(db)));
    }
    return s;
  }
  void StepDone(sqlite3_stmt* s) {
    if (sqlite3_step(s) != SQLITE_DONE) Die(sqlite3_errmsg(db_));
    sqlite3_reset(s);
  }

  sqlite3* db_ = nullptr;
  sqlite3* sweep_db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* touch_ = nullptr;
  sqlite3_stmt* get_ = nullptr;
  sqlite3_stmt* find_ = nullptr;
  sqlite3_stmt* delete_ = nullptr;
};

}  // namespace

std::unique_ptr<Store> NewSqliteStore() {
  return std::make_unique<SqliteStore>();
}

}  // namespace bench
}  // namespace ttldb
