// Store tests: several processes and threads appending to one database at once lose nothing.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "pasda/store/store.hpp"
#include "store/sample_run.hpp"
#include "store/temp_db.hpp"

namespace pasda::store {
namespace {

using testing::sampleRun;
using testing::TempDb;

constexpr int kRunsPerWriter = 50;

TEST(StoreConcurrency, ProcessesAppendingAtOnceLoseNothing) {
  TempDb tmp("procs");
  constexpr int kProcesses = 4;
  std::vector<pid_t> children;
  for (int w = 0; w < kProcesses; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0) << "fork failed";
    if (pid == 0) {
      // Child: its own connection, created concurrently with the others (schema race included).
      int code = 0;
      try {
        Store store(tmp.path());
        for (int i = 0; i < kRunsPerWriter; ++i) {
          store.appendRun(sampleRun("-p" + std::to_string(w) + "-" + std::to_string(i)));
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "writer %d: %s\n", w, e.what());
        code = 1;
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << pid << " status " << status;
  }
  Store store(tmp.path());
  EXPECT_EQ(store.countRows("run"), kProcesses * kRunsPerWriter);
  EXPECT_EQ(store.countRows("benchmark"), kProcesses * kRunsPerWriter);
  EXPECT_EQ(store.countRows("partition"), kProcesses * kRunsPerWriter * 3);
  EXPECT_EQ(store.countRows("schema_version"), 1);
  // Every run is complete.
  for (auto id : store.runIds()) {
    auto run = store.loadRun(id);
    ASSERT_TRUE(run.has_value());
    ASSERT_EQ(run->iterations.size(), 2u);
    EXPECT_EQ(run->iterations[0].partitions.size(), 3u);
  }
}

TEST(StoreConcurrency, ThreadsWithSeparateConnectionsLoseNothing) {
  TempDb tmp("threads");
  constexpr int kThreads = 3;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  std::vector<std::vector<std::int64_t>> ids(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        Store store(tmp.path());
        for (int i = 0; i < kRunsPerWriter; ++i) {
          ids[t].push_back(store.appendRun(sampleRun("-t" + std::to_string(t) + "-" + std::to_string(i))));
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << t << ": " << e.what();
        ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  std::set<std::int64_t> distinct;
  for (const auto& v : ids) distinct.insert(v.begin(), v.end());
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(kThreads * kRunsPerWriter));
  Store store(tmp.path());
  EXPECT_EQ(store.countRows("run"), kThreads * kRunsPerWriter);
  EXPECT_EQ(store.countRows("settings"), kThreads * kRunsPerWriter);
}

}  // namespace
}  // namespace pasda::store
