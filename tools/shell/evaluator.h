// The shell's evaluator: runs parsed statements against a ShellBackend and
// prints results the way mongosh does.
//
// It is not a JavaScript interpreter. Functions are arrow functions and
// function expressions whose bodies are expressions (for map/forEach). It
// knows the shell's objects (`db`,
// collections, find cursors), the BSON constructors (builtins.h), a few
// globals (print, printjson, sleep, quit/exit, help, Date.now) and
// variables bound with var/let/const or plain assignment. Method calls on
// `db`, collections and cursors map onto ShellBackend:
//
//   db.c.insertOne(doc) / insertMany(docs, {ordered}) / insert(doc|docs)
//   db.c.find(filter, projection)[.sort(s).skip(n).limit(n).pretty()
//       .batchSize(n).count().size().itcount().toArray().explain(v)
//       .map(fn).forEach(fn).next().hasNext().tryNext()]
//   db.c.findOneAndUpdate/findOneAndReplace(filter, update, {sort,
//       projection, upsert, returnDocument, returnNewDocument, arrayFilters}),
//       findOneAndDelete(filter, {sort, projection}), findAndModify({...})
//   db.c.bulkWrite([{insertOne: ...}, ...], {ordered}),
//       renameCollection(name, dropTarget), db.stats(scale)
//   db.c.findOne(filter, projection)
//   db.c.updateOne/updateMany(filter, update, {upsert, arrayFilters})
//   db.c.replaceOne(filter, update, {upsert})
//   db.c.update(filter, update, {upsert, multi, arrayFilters})   (legacy)
//   db.c.deleteOne/deleteMany(filter), db.c.remove(filter, justOne)
//   db.c.count(filter), countDocuments(filter, {skip, limit}),
//       estimatedDocumentCount(), distinct(key, filter)
//   db.c.createIndex(keys, options), ensureIndex, createIndexes([keys]),
//       getIndexes(), dropIndex(name|keys), dropIndexes(), drop(), stats(),
//       validate(options), getName(), getFullName()
//   db.getCollection(name), db["name"], db.getCollectionNames(),
//   db.createCollection(name, options), db.runCommand(cmd|"name"),
//   db.adminCommand(cmd|"name"), db.serverStatus(), db.getName()
//   show collections | show tables | show dbs, use <db>, help, exit, quit
//
// Output: the value of each expression statement (unless undefined) is
// printed to `out` followed by a newline: in mongosh's form (value_format.h)
// or, in OutputMode::kJson, as one line of relaxed Extended JSON (a cursor
// prints one document per line). A cursor prints as an array of its first
// 20 documents and `it` prints the next 20, as in mongosh; a top-level
// string prints bare (createIndex's "a_1"). print() and printjson() always
// print. Errors are returned, not printed: the caller prints
// FormatError(status) (to stderr) and, in a REPL, keeps going.
//
// Not thread-safe: one Evaluator per shell session.
#ifndef TTLDB_TOOLS_SHELL_EVALUATOR_H_
#define TTLDB_TOOLS_SHELL_EVALUATOR_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "tools/shell/parser.h"
#include "tools/shell/shell_backend.h"
#include "tools/shell/value_format.h"
#include "ttldb/value.h"

namespace ttldb {
namespace shell {

enum class OutputMode {
  kShell,  // mongosh's printing
  kJson,   // relaxed Extended JSON, one line per value or document
};

struct EvaluatorOptions {
  OutputMode mode = OutputMode::kShell;
  // Print the value of expression statements. True for a REPL; mongosh
  // does not print them when it runs a script file, only print() output.
  bool print_results = true;
  // Print mongosh's one-time "DeprecationWarning: Collection.insert() is
  // deprecated..." for insert/update/remove/count.
  bool deprecation_warnings = true;
  // A printed cursor shows this many documents, then 'Type "it" for
  // more' (mongosh's displayBatchSize); 0 prints them all.
  size_t cursor_batch_size = 20;
  std::string database = "test";
  // Injected world; defaults: wall clock, the local time zone,
  // absl::SleepFor, ObjectId::Generate, absl::BitGen bytes.
  std::function<int64_t()> now_millis;
  absl::TimeZone time_zone = absl::LocalTimeZone();
  std::function<void(int64_t millis)> sleep;
  std::function<ObjectId()> new_object_id;
  std::function<std::string(size_t)> random_bytes;
  FormatOptions format;
};

// Where a find cursor's iteration stands once next()/hasNext() (or
// toArray/itcount/forEach, which exhaust it) started it. Shared by the
// copies of one cursor value (a variable and the value read from it).
struct CursorState {
  bool started = false;
  std::vector<Value> docs;  // the results (transformed), once started
  size_t pos = 0;           // the next one next() returns
};

// A runtime value: a BSON value, or one of the shell's own objects.
struct ShellValue {
  enum class Kind {
    kUndefined,
    kValue,       // value
    kDatabase,    // db
    kCollection,  // collection: its name
    kCursor,      // collection + find: a find() not yet run
    kFunction,    // name: print, printjson; or a function literal
  };
  Kind kind = Kind::kUndefined;
  Value value;
  std::string collection;
  FindRequest find;
  // An aggregate() cursor (kCursor) when not null: the pipeline (an
  // array) and the options given with it.
  Value pipeline;
  Value aggregate_options;
  std::string name;
  // kCursor: its iteration state, and cursor.map() functions to apply.
  std::shared_ptr<CursorState> cursor_state;
  std::vector<std::shared_ptr<const FunctionBody>> transforms;
  // kFunction written in the script (x => ..., function (x) {...}).
  std::shared_ptr<const FunctionBody> function;

  static ShellValue Undefined() { return ShellValue(); }
  static ShellValue Of(Value v) {
    ShellValue s;
    s.kind = Kind::kValue;
    s.value = std::move(v);
    return s;
  }
};

class Evaluator {
 public:
  // `backend` and `out` must outlive the evaluator.
  Evaluator(ShellBackend* backend, std::ostream* out,
            EvaluatorOptions options = {});

  // Parses `source` (one REPL entry or a whole script) and runs its
  // statements in order. Returns the first error (a syntax error runs
  // nothing); statements before it have run and printed. Stops early, OK,
  // after exit/quit.
  absl::Status Run(absl::string_view source);

  // Like Run, but a statement's error goes to `on_error` and the next
  // statement runs, as mongosh does with a script piped to its standard
  // input. Returns a syntax error (nothing runs) or an interruption (the
  // rest does not run); otherwise OK, even when statements failed.
  absl::Status RunEach(
      absl::string_view source,
      const std::function<void(const absl::Status&)>& on_error);

  // Runs one parsed statement.
  absl::Status Execute(const Statement& statement);

  // Evaluates one expression.
  absl::StatusOr<ShellValue> Evaluate(const Node& node);

  // True once exit/quit ran; exit_code() is quit(n)'s argument.
  bool exit_requested() const { return exit_requested_; }
  int exit_code() const { return exit_code_; }

  // The current database name (`use x` changes it); the prompt shows it.
  const std::string& database() const { return options_.database; }

  // The variable environment.
  void SetVariable(const std::string& name, ShellValue value);
  const ShellValue* GetVariable(const std::string& name) const;

 private:
  // Run (on_error null: stop at the first error) and RunEach.
  absl::Status RunStatements(
      absl::string_view source,
      const std::function<void(const absl::Status&)>* on_error);

  using Args = std::vector<ShellValue>;

  absl::Status RunCommand(const Statement& st);
  absl::Status Assign(const Node& target, ShellValue value);
  absl::Status Print(const ShellValue& v);
  std::string Render(const Value& v) const;
  void Warn(const std::string& method, const std::string& message);
  // Prints the next batch of pending_ (the last printed cursor).
  void PrintBatch();

  absl::StatusOr<ShellValue> EvalMember(const ShellValue& target,
                                        const std::string& name,
                                        const Node& node);
  absl::StatusOr<ShellValue> EvalCall(const Node& node);
  absl::StatusOr<ShellValue> CallGlobal(const Node& node, const Args& args);
  absl::StatusOr<ShellValue> CallDbMethod(const std::string& method,
                                          const Args& args, const Node& node);
  absl::StatusOr<ShellValue> CallCollectionMethod(const std::string& coll,
                                                  const std::string& method,
                                                  const Args& args,
                                                  const Node& node);
  // findOneAndUpdate/Replace/Delete, findAndModify, bulkWrite,
  // renameCollection (modify_methods.cc); nullopt: not one of them.
  absl::StatusOr<std::optional<ShellValue>> CallModifyMethod(
      const std::string& coll, const std::string& method, const Args& args);
  // db.stats(scale).
  absl::StatusOr<ShellValue> DbStats(const Args& args);
  absl::StatusOr<ShellValue> CallCursorMethod(const ShellValue& cursor,
                                              const std::string& method,
                                              const Args& args,
                                              const Node& node);
  absl::StatusOr<ShellValue> CallValueMethod(const Value& v,
                                             const std::string& method,
                                             const Args& args,
                                             const Node& node);
  // The cursor's documents: the rest of them once started (taking them),
  // else a fresh run of its find with its map() functions applied.
  absl::StatusOr<std::vector<Value>> RunCursor(const ShellValue& cursor);
  // As RunCursor, and marks the cursor exhausted (toArray, itcount,
  // forEach).
  absl::StatusOr<std::vector<Value>> DrainCursor(const ShellValue& cursor);
  // Calls a function value: a function literal (its parameters bound as
  // variables while its body runs) or print/printjson.
  absl::StatusOr<ShellValue> CallFunction(const ShellValue& fn,
                                          const Args& args);
  int64_t Now() const;
  // A value as an operand of + - * / % (undefined is std::nullopt).
  std::optional<Value> Operand(const ShellValue& v) const;
  // JavaScript's ToBoolean, and `a op b` for a comparison or equality
  // operator (tools/shell/arithmetic.h JsCompare's codes).
  bool IsTruthy(const ShellValue& v) const;
  bool Compare(char op, const ShellValue& a, const ShellValue& b) const;

  ShellBackend* backend_;
  std::ostream* out_;
  EvaluatorOptions options_;
  std::map<std::string, ShellValue> variables_;
  std::set<std::string> constants_;
  std::set<std::string> warned_;
  std::vector<Value> pending_;  // the documents of the last printed cursor
  size_t pending_pos_ = 0;      // how many of them have been printed
  bool exit_requested_ = false;
  int exit_code_ = 0;
};

// An error as the shell prints it: "SyntaxError: ...", "TypeError: ...",
// "MongoServerError[IndexOptionsConflict]: ..." (when the status carries a
// MongoDB code), else "Error: <message>".
std::string FormatError(const absl::Status& status);

// The text `help` prints.
absl::string_view HelpText();

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_EVALUATOR_H_
