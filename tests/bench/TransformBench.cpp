// The benchmark of "Taming the Hydra: targeted control-flow transformations for dynamic
// symbolic execution" (cfm-se, its Table 3): eleven small programs (tests/bench/transform/*.c),
// each at its paper's input sizes, under four configurations side by side. Not a timed test.
//
//   cairn-bench-transform CAIRN_BINARY [--programs DIR] [--sizes small|paper|N,N,...]
//                         [--timeout SECONDS] [--repeat N] [--only NAME[,NAME...]]
//                         [--queries solver|engine]
//
// The configurations (the paper's K, SM, C and C-SM):
//   plain        cairn run as it is
//   merging      --cflag -DMERGE: the programs' klee_open_merge()/klee_close_merge() around
//                their loop's symbolic branch (KLEE's state merging, the user's annotation)
//   transform    --transform-branches symbolic: the engine turns symbolic branches into selects
//   trans+merge  both
// Each run is `cairn run --json --quiet --output-dir /dev/shm/cairn-bench-transform/...
// --max-time T --cflag -DN=n PROGRAM` plus the configuration's options. A row per program and
// size gives each configuration's time (the engine's wall time; OOT when the run hit --max-time),
// solver queries (those that reached the core solver: summary.json's solver_queries; with
// --queries engine, every query the engine asked the solver chain: its queries) and completed
// paths. A run that fails (an option the cairn binary does not know, a compile error) shows ERR
// and the table goes on; the reasons are listed after it. With --repeat N the configurations
// take turns N times and each keeps its fastest finished run (a run that hit the time limit or
// failed is not repeated).
//
// --sizes small runs each program at its smallest paper size (a quick check), paper at all
// three; a list of numbers runs those sizes for every program chosen (with --only). Default
// timeout: 60 s per run.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "BenchProcess.h"

namespace fs = std::filesystem;
using cairn::bench::field;
using cairn::bench::Run;
using cairn::bench::runCairn;

namespace {

// The programs in the paper's order (its Table 1), with the paper's three input sizes.
struct Program {
  const char *name;
  int sizes[3];
};
constexpr Program kPrograms[] = {
    {"toupper", {10, 50, 100}},
    {"bitonic_sort", {4, 8, 16}},
    {"connected_components", {3, 4, 5}},
    {"prim", {4, 5, 6}},
    {"merge_sort", {5, 10, 15}},
    {"transitive_closure", {3, 4, 5}},
    {"dilation", {4, 5, 6}},
    {"detect_edges", {3, 4, 5}},
    {"floyd_warshall", {3, 4, 5}},
    {"erosion", {4, 5, 6}},
    {"dijkstra", {4, 5, 6}},
};

struct Config {
  const char *name;
  const char *column; // its columns' heading, 8 characters at most
  std::vector<std::string> args;
};
const std::vector<Config> kConfigs = {
    {"plain", "plain", {}},
    {"merging", "merge", {"--cflag", "-DMERGE"}},
    {"transform", "transf", {"--transform-branches", "symbolic"}},
    {"trans+merge", "tr+merge", {"--transform-branches", "symbolic", "--cflag", "-DMERGE"}},
};
enum { kPlain, kMerging, kTransform, kTransMerge };

// One configuration's outcome on one program and size.
struct Cell {
  enum Status { NotRun, Done, OutOfTime, Partial, Failed, Killed } status = NotRun;
  double seconds = 0;    // summary.json's wall_time_s
  double queries = 0;    // solver_queries (or queries)
  double completed = 0;  // paths_completed
  double partial = 0;    // paths_partial
  int errors = 0;        // errors the program had (.err files)
  std::string why;       // Failed: the first line cairn printed on stderr; Partial: a .early's reason
  std::string errorText; // the first error's type/kind, line and message

  bool finished() const { return status == Done; }
};

std::string firstLine(const std::string &text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos)
    return "";
  size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// What a failed run said: its first line, and the lines after it while it ends in ':' (a
// message that goes on below), up to a few hundred characters on one line.
std::string failureText(const std::string &text) {
  std::string out;
  std::stringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    line = firstLine(line);
    if (line.empty())
      continue;
    out += (out.empty() ? "" : " ") + line;
    if (out.back() != ':' || out.size() > 300)
      break;
  }
  if (out.size() > 400)
    out = out.substr(0, 400) + "...";
  return out;
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The JSON string after "key": at or after `from`, unescaped only for \" and \\.
std::string stringField(const std::string &json, const char *key, size_t from) {
  std::string k = std::string("\"") + key + "\": \"";
  size_t at = json.find(k, from);
  if (at == std::string::npos)
    return "";
  std::string out;
  for (size_t i = at + k.size(); i < json.size() && json[i] != '"'; ++i) {
    if (json[i] == '\\' && i + 1 < json.size())
      ++i;
    out += json[i];
  }
  return out;
}

// The summary's errors: how many, and the first one as text.
void readErrors(const std::string &json, Cell &cell) {
  size_t list = json.find("\"errors\": [");
  if (list == std::string::npos)
    return;
  for (size_t at = json.find("\"type\": ", list); at != std::string::npos; at = json.find("\"type\": ", at + 1))
    ++cell.errors;
  if (cell.errors)
    cell.errorText = stringField(json, "type", list) + "/" + stringField(json, "kind", list) + " at line " +
                     std::to_string(long(field(json.substr(list), "line"))) + ": " +
                     stringField(json, "message", list);
}

// Why the run's partial paths ended: "time limit reached" when --max-time cut the run short (the
// .early file beside each partial path's test names its reason); otherwise the first reason seen.
std::string partialReason(const fs::path &dir, bool &timeLimit) {
  timeLimit = false;
  std::string first;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".early")
      continue;
    std::string reason = firstLine(readFile(e.path()));
    if (reason.find("time limit") != std::string::npos) {
      timeLimit = true;
      return reason;
    }
    if (first.empty())
      first = reason;
  }
  return first;
}

struct Options {
  std::string cairn;
  fs::path programs;
  std::string sizes = "small";
  std::vector<int> sizeList;
  int timeout = 60;
  int repeat = 1;
  std::vector<std::string> only;
  bool engineQueries = false;
};

// One run of `cairn run` for a program at size n under configuration c.
Cell runOnce(const Options &o, const fs::path &base, const fs::path &source, const std::string &program, int n,
             size_t c) {
  fs::path out = base / (program + "-" + std::to_string(n) + "-" + kConfigs[c].name);
  fs::path errFile = base / "stderr.txt";
  fs::remove_all(out);
  std::vector<std::string> command;
  // A watchdog in case a run does not stop near its time limit (the limit bounds exploration,
  // not the tests written at its end): the run is killed and its cell shows KILL.
  const int hardLimit = 2 * o.timeout + 60;
  const bool watchdog = access("/usr/bin/timeout", X_OK) == 0;
  if (watchdog)
    command = {"/usr/bin/timeout", "--kill-after=10", std::to_string(hardLimit)};
  std::vector<std::string> run = {o.cairn,      "run",       "--json", "--quiet", "--output-dir",
                                  out.string(), "--max-time", std::to_string(o.timeout), "--cflag",
                                  "-DN=" + std::to_string(n)};
  command.insert(command.end(), run.begin(), run.end());
  command.insert(command.end(), kConfigs[c].args.begin(), kConfigs[c].args.end());
  command.push_back(source.string());

  // cairn's stderr (its usage text after an unknown option, clang's messages) goes to a file:
  // the table stays readable and the first line is the failure's reason.
  std::fflush(stderr);
  int savedErr = dup(2);
  int errFd = open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (errFd >= 0) {
    dup2(errFd, 2);
    close(errFd);
  }
  Run r = runCairn(command);
  if (savedErr >= 0) {
    dup2(savedErr, 2);
    close(savedErr);
  }

  Cell cell;
  if (r.json.find("\"paths_completed\"") == std::string::npos) {
    cell.status = watchdog && r.processSeconds >= hardLimit - 1 ? Cell::Killed : Cell::Failed;
    cell.why = cell.status == Cell::Killed ? "killed after " + std::to_string(hardLimit) + " s"
                                           : failureText(readFile(errFile));
    if (cell.why.empty())
      cell.why = "cairn exited without a summary";
  } else {
    cell.seconds = field(r.json, "wall_time_s");
    cell.queries = field(r.json, o.engineQueries ? "queries" : "solver_queries");
    cell.completed = field(r.json, "paths_completed");
    cell.partial = field(r.json, "paths_partial");
    readErrors(r.json, cell);
    cell.status = Cell::Done;
    if (cell.partial > 0) {
      bool timeLimit = false;
      cell.why = partialReason(out, timeLimit);
      // Near the limit a solver query gets only the time left, and its state ends as a
      // partial path of its own ("solver failure: timeout"): a run that went on to the limit
      // ran out of time whatever its .early files say.
      if (cell.seconds >= o.timeout - std::min(1.0, 0.05 * o.timeout))
        timeLimit = true;
      cell.status = timeLimit ? Cell::OutOfTime : Cell::Partial;
    }
  }
  fs::remove_all(out);
  fs::remove(errFile);
  return cell;
}

std::string timeText(const Cell &c) {
  char buf[32];
  switch (c.status) {
  case Cell::NotRun:
    return "-";
  case Cell::OutOfTime:
    return "OOT";
  case Cell::Failed:
    return "ERR";
  case Cell::Killed:
    return "KILL";
  case Cell::Partial:
    std::snprintf(buf, sizeof buf, "%.2f*", c.seconds);
    return buf;
  case Cell::Done:
    break;
  }
  std::snprintf(buf, sizeof buf, "%.2f", c.seconds);
  return buf;
}

std::string countText(const Cell &c, double value, bool markErrors) {
  if (c.status == Cell::NotRun || c.status == Cell::Failed || c.status == Cell::Killed)
    return c.status == Cell::NotRun ? "-" : "ERR";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%s", value, markErrors && c.errors ? "!" : "");
  return buf;
}

// Is configuration t's time better than configuration other's at one size? A finished run beats
// one that ran out of time (or was cut short, or killed); a failed one cannot be compared.
enum class Versus { Faster, NotFaster, Unknown };
Versus faster(const Cell &t, const Cell &other) {
  if (!t.finished())
    return t.status == Cell::Failed || t.status == Cell::NotRun ? Versus::Unknown : Versus::NotFaster;
  if (other.status == Cell::Failed || other.status == Cell::NotRun)
    return Versus::Unknown;
  if (!other.finished())
    return Versus::Faster;
  return t.seconds < other.seconds ? Versus::Faster : Versus::NotFaster;
}

int usage(const char *self) {
  std::fprintf(stderr,
               "usage: %s CAIRN_BINARY [--programs DIR] [--sizes small|paper|N,N,...] [--timeout SECONDS]\n"
               "       [--repeat N] [--only NAME[,NAME...]] [--queries solver|engine]\n"
               "  runs the programs of \"Taming the Hydra\" (default: tests/bench/transform) under plain,\n"
               "  merging (-DMERGE), transform (--transform-branches symbolic) and both; one row per\n"
               "  program and size: time (OOT past --timeout, default 60), queries, completed paths\n",
               self);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-')
    return usage(argv[0]);
  Options o;
  o.cairn = argv[1];
  // The programs beside this source file, else under the working directory.
  o.programs = fs::path(__FILE__).parent_path() / "transform";
  if (!fs::is_directory(o.programs))
    o.programs = "tests/bench/transform";
  bool programsGiven = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    bool hasValue = i + 1 < argc;
    if (a == "--programs" && hasValue) {
      o.programs = argv[++i];
      programsGiven = true;
    } else if (a == "--sizes" && hasValue) {
      o.sizes = argv[++i];
      if (o.sizes != "small" && o.sizes != "paper") {
        std::stringstream list(o.sizes);
        std::string item;
        while (std::getline(list, item, ','))
          if (int n = std::atoi(item.c_str()); n > 0)
            o.sizeList.push_back(n);
        if (o.sizeList.empty())
          return usage(argv[0]);
      }
    } else if (a == "--timeout" && hasValue) {
      o.timeout = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--repeat" && hasValue) {
      o.repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--only" && hasValue) {
      std::stringstream list(argv[++i]);
      std::string item;
      while (std::getline(list, item, ','))
        if (!item.empty())
          o.only.push_back(item);
    } else if (a == "--queries" && hasValue) {
      std::string q = argv[++i];
      if (q != "solver" && q != "engine")
        return usage(argv[0]);
      o.engineQueries = q == "engine";
    } else {
      return usage(argv[0]);
    }
  }
  if (!fs::is_directory(o.programs)) {
    std::fprintf(stderr, "%s: no programs directory %s%s\n", argv[0], o.programs.c_str(),
                 programsGiven ? "" : " (give one with --programs)");
    return 2;
  }
  o.programs = fs::absolute(o.programs);
  if (!fs::is_regular_file(o.cairn)) {
    std::fprintf(stderr, "%s: no cairn binary at %s\n", argv[0], o.cairn.c_str());
    return 2;
  }
  std::vector<const Program *> chosen;
  for (const Program &p : kPrograms)
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), p.name) != o.only.end())
      chosen.push_back(&p);
  for (const std::string &name : o.only)
    if (std::none_of(std::begin(kPrograms), std::end(kPrograms), [&](const Program &p) { return name == p.name; })) {
      std::fprintf(stderr, "%s: no program %s (the programs:", argv[0], name.c_str());
      for (const Program &p : kPrograms)
        std::fprintf(stderr, " %s", p.name);
      std::fprintf(stderr, ")\n");
      return 2;
    }

  // In memory: thousands of tests per run, written and deleted.
  fs::path shm = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  fs::path base = shm / "cairn-bench-transform" / std::to_string(getpid());
  fs::create_directories(base);

  const char *qName = o.engineQueries ? "queries (engine)" : "solver queries";
  std::printf("cairn-bench-transform: %s, programs %s, timeout %d s, repeat %d\n", o.cairn.c_str(),
              o.programs.c_str(), o.timeout, o.repeat);
  std::printf("merge: -DMERGE (klee_open_merge/klee_close_merge), transf: --transform-branches symbolic, "
              "tr+merge: both\n\n");
  std::printf("%-21s %4s | %-35s | %-35s | %-35s\n", "", "", "time (s)", qName, "paths completed");
  std::printf("%-21s %4s |", "program", "N");
  for (int group = 0; group < 3; ++group) {
    for (const Config &c : kConfigs)
      std::printf(" %8.8s", c.column);
    std::printf(group < 2 ? " |" : "\n");
  }

  struct Row {
    const Program *program;
    int n;
    std::vector<Cell> cells;
  };
  std::vector<Row> rows;
  for (const Program *p : chosen) {
    fs::path source = o.programs / (std::string(p->name) + ".c");
    std::vector<int> sizes;
    if (!o.sizeList.empty())
      sizes = o.sizeList;
    else if (o.sizes == "paper")
      sizes.assign(std::begin(p->sizes), std::end(p->sizes));
    else
      sizes = {p->sizes[0]};
    for (int n : sizes) {
      Row row{p, n, std::vector<Cell>(kConfigs.size())};
      if (!fs::is_regular_file(source)) {
        std::printf("%-21s %4d | missing: %s\n", p->name, n, source.c_str());
        continue;
      }
      for (int round = 0; round < o.repeat; ++round)
        for (size_t c = 0; c < kConfigs.size(); ++c) {
          Cell &best = row.cells[c];
          if (round > 0 && !best.finished())
            continue; // out of time, cut short or failed: another try tells nothing new
          Cell cell = runOnce(o, base, source, p->name, n, c);
          if (best.status == Cell::NotRun || (cell.finished() && cell.seconds < best.seconds))
            best = std::move(cell);
        }
      std::printf("%-21s %4d |", p->name, n);
      for (const Cell &c : row.cells)
        std::printf(" %8s", timeText(c).c_str());
      std::printf(" |");
      for (const Cell &c : row.cells)
        std::printf(" %8s", countText(c, c.queries, false).c_str());
      std::printf(" |");
      for (const Cell &c : row.cells)
        std::printf(" %8s", countText(c, c.completed, true).c_str());
      std::printf("\n");
      std::fflush(stdout);
      rows.push_back(std::move(row));
    }
  }
  std::error_code ec;
  fs::remove_all(base, ec);
  fs::remove(base.parent_path(), ec); // only when empty: another bench may be running

  // Notes: cut-short runs, the programs' errors, failures (each reason once per configuration).
  auto note = [](const std::string &text) { std::printf("%s\n", text.c_str()); };
  std::printf("\nOOT: the run hit --max-time %d (its paths still running ended partial). ", o.timeout);
  std::printf("*: paths ended partial for another reason. !: the program had errors.\n");
  for (size_t c = 0; c < kConfigs.size(); ++c) {
    std::map<std::string, std::vector<std::string>> failures;
    for (const Row &row : rows) {
      const Cell &cell = row.cells[c];
      std::string where = std::string(row.program->name) + " " + std::to_string(row.n);
      if (cell.status == Cell::Failed || cell.status == Cell::Killed)
        failures[cell.why].push_back(where);
      if (cell.status == Cell::Partial)
        note(std::string(kConfigs[c].name) + " " + where + ": " + std::to_string(long(cell.partial)) +
             " partial paths: " + cell.why);
      if (cell.errors)
        note(std::string(kConfigs[c].name) + " " + where + ": " + std::to_string(cell.errors) +
             " errors, the first " + cell.errorText);
    }
    for (const auto &[why, where] : failures) {
      // The runs by program: "toupper (10 50), prim (4)".
      std::string runs, program;
      for (const std::string &w : where) {
        std::string name = w.substr(0, w.find(' ')), n = w.substr(w.find(' ') + 1);
        if (name == program) {
          runs += " " + n;
        } else {
          runs += (runs.empty() ? "" : "), ") + name + " (" + n;
          program = name;
        }
      }
      note(std::string(kConfigs[c].name) + ": ERR on " + std::to_string(where.size()) + " run" +
           (where.size() == 1 ? "" : "s") + ", " + runs + "): " + why);
    }
  }

  // Transform against plain and merging, per program at the largest size some configuration
  // finished (the paper's "C is faster than K and SM on 8 of the 11").
  std::vector<std::string> wins, losses, unknown;
  int compared = 0;
  for (const Program *p : chosen) {
    const Row *largest = nullptr;
    for (const Row &row : rows)
      if (row.program == p && std::any_of(row.cells.begin(), row.cells.end(), [](const Cell &c) { return c.finished(); }))
        if (!largest || row.n > largest->n)
          largest = &row;
    if (!largest)
      continue;
    ++compared;
    const Cell &t = largest->cells[kTransform];
    Versus vp = faster(t, largest->cells[kPlain]), vm = faster(t, largest->cells[kMerging]);
    std::string label = std::string(p->name) + " (N=" + std::to_string(largest->n) + ")";
    if (vp == Versus::Faster && vm == Versus::Faster)
      wins.push_back(label);
    else if (vp == Versus::Unknown || vm == Versus::Unknown)
      unknown.push_back(label);
    else
      losses.push_back(label);
  }
  auto list = [](const std::vector<std::string> &names) {
    std::string s;
    for (const std::string &n : names)
      s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? std::string("none") : s;
  };
  std::printf("\ntransform faster than both plain and merging (at the largest size each program finished in "
              "some configuration): %zu of %d programs: %s\n",
              wins.size(), compared, list(wins).c_str());
  if (!losses.empty())
    std::printf("  not faster: %s\n", list(losses).c_str());
  if (!unknown.empty())
    std::printf("  not compared (a run failed): %s\n", list(unknown).c_str());

  // Which programs each configuration explored on a single path (and at which sizes).
  for (size_t c = 0; c < kConfigs.size(); ++c) {
    std::string s;
    for (const Program *p : chosen) {
      std::string sizes;
      for (const Row &row : rows)
        if (row.program == p && row.cells[c].finished() && row.cells[c].completed == 1)
          sizes += (sizes.empty() ? "" : " ") + std::to_string(row.n);
      if (!sizes.empty())
        s += (s.empty() ? "" : ", ") + std::string(p->name) + " (N=" + sizes + ")";
    }
    std::printf("%-11s reached 1 path: %s\n", kConfigs[c].name, s.empty() ? "none" : s.c_str());
  }
  return 0;
}
