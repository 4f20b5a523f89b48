#include "tests/reliability/crash_log.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ttldb {

void CrashModel::Apply(const CrashOp& op) {
  ++acked_ops;
  if (op.id > max_id) max_id = op.id;
  switch (op.op) {
    case 'I':
    case 'E':
      docs[op.id] = CrashDoc{op.v, op.op == 'E', false};
      break;
    case 'U':
      docs[op.id].v = op.v;
      break;
    case 'D':
      docs[op.id].deleted = true;
      break;
    case 'X':
      index_w = true;
      break;
    case 'Y':
      index_w = false;
      break;
    default:  // T, P: nothing to remember
      break;
  }
}

CrashModel ReplayCrashLog(const std::string& path) {
  CrashModel model;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line == "A") {
      if (model.in_flight.has_value()) model.Apply(*model.in_flight);
      model.in_flight.reset();
      continue;
    }
    std::istringstream fields(line);
    std::string tag;
    CrashOp op;
    fields >> tag >> op.op >> op.id >> op.v;
    if (tag != "B" || fields.fail())
      continue;  // cannot happen: lines are
                 // written whole
    model.in_flight = op;
    if (op.id > model.max_id) model.max_id = op.id;
  }
  return model;
}

void AppendCrashLog(int fd, const std::string& line) {
  const std::string data = line + "\n";
  if (write(fd, data.data(), data.size()) !=
          static_cast<ssize_t>(data.size()) ||
      fsync(fd) != 0) {
    perror("crash log");
    abort();
  }
}

}  // namespace ttldb
