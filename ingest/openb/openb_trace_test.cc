#include "ingest/openb/openb_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"
#include "tests/support/test_dir.h"

namespace fleetcap::openb {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::TestDir;
using ::testing::HasSubstr;

constexpr char kNodes[] =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "node-b,64000,262144,2,T4\n"
    "node-a,96000,393216,8,G2\n";

constexpr char kPodHeader[] =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n";

absl::Status PodError(const TestDir& dir, const std::string& rows) {
  return ReadOpenbPods(dir.Write(kOpenbDefaultPodFile, kPodHeader + rows)).status();
}

TEST(ReadOpenbTrace, ReadsBothListsInFileOrder) {
  TestDir dir;
  dir.Write(kOpenbNodeFile, kNodes);
  dir.Write(kOpenbDefaultPodFile, std::string(kPodHeader) +
                                      "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,100,5\n"
                                      "openb-pod-0001,6000,12288,1,460,T4|P100,BE,Pending,7,,\n");
  absl::StatusOr<OpenbTrace> trace = ReadOpenbTrace(dir.path());
  ASSERT_THAT(trace, IsOk());

  ASSERT_EQ(trace->nodes.size(), 2u);
  EXPECT_EQ(trace->nodes[0].name, "node-b");
  EXPECT_EQ(trace->nodes[0].cpu_milli, 64000);
  EXPECT_EQ(trace->nodes[0].memory_mib, 262144);
  EXPECT_EQ(trace->nodes[0].gpus, 2);
  EXPECT_EQ(trace->nodes[0].model, "T4");

  ASSERT_EQ(trace->pods.size(), 2u);
  const OpenbPod& placed = trace->pods[0];
  EXPECT_EQ(placed.name, "openb-pod-0000");
  EXPECT_EQ(placed.cpu_milli, 12000);
  EXPECT_EQ(placed.memory_mib, 16384);
  EXPECT_EQ(placed.num_gpu, 1);
  EXPECT_EQ(placed.gpu_milli, 1000);
  EXPECT_EQ(placed.qos, "LS");
  EXPECT_EQ(placed.phase, "Running");
  EXPECT_EQ(placed.creation_s, 0);
  EXPECT_EQ(placed.deletion_s, 100);
  EXPECT_EQ(placed.scheduled_s, 5);
  const OpenbPod& pending = trace->pods[1];
  EXPECT_EQ(pending.gpu_milli, 460);
  EXPECT_EQ(pending.gpu_spec, "T4|P100");
  EXPECT_EQ(pending.phase, "Pending");
  EXPECT_EQ(pending.deletion_s, std::nullopt);
  EXPECT_EQ(pending.scheduled_s, std::nullopt);
}

TEST(ReadOpenbTrace, ColumnsAreFoundByNameNotPosition) {
  TestDir dir;
  const std::string path =
      dir.Write("shuffled.csv",
                "scheduled_time,extra,deletion_time,creation_time,pod_phase,qos,gpu_spec,gpu_milli,"
                "num_gpu,memory_mib,cpu_milli,name\n"
                "9,ignored,20,3,Running,LS,,250,1,1024,500,p\n");
  absl::StatusOr<std::vector<OpenbPod>> pods = ReadOpenbPods(path);
  ASSERT_THAT(pods, IsOk());
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ((*pods)[0].name, "p");
  EXPECT_EQ((*pods)[0].cpu_milli, 500);
  EXPECT_EQ((*pods)[0].gpu_milli, 250);
  EXPECT_EQ((*pods)[0].creation_s, 3);
  EXPECT_EQ((*pods)[0].deletion_s, 20);
  EXPECT_EQ((*pods)[0].scheduled_s, 9);
}

TEST(ReadOpenbTrace, BadIntegerNamesFileLineAndField) {
  TestDir dir;
  absl::Status status = PodError(dir,
                                 "p0,1,1,1,1000,,LS,Running,0,10,0\n"
                                 "p1,1,1,x,1000,,LS,Running,0,10,0\n");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.ToString(), HasSubstr("openb_pod_list_default.csv:3: num_gpu: \"x\" is not an integer"));
}

TEST(ReadOpenbTrace, MalformedRowsAreSetAsideAndTheRestRead) {
  TestDir dir;
  dir.Write(kOpenbNodeFile, kNodes);
  dir.Write(kOpenbDefaultPodFile, kPodHeader + std::string("p0,1,1,1,1000,,LS,Running,0,10,0\n"
                                                           "p1,1,1,x,1000,,LS,Running,0,10,0\n"
                                                           "p2,1,1,1,1000,,LS,Running,4000000000,,\n"
                                                           "p3,1,1,1,1000,,LS,Running,5,10,5\n"));
  absl::StatusOr<OpenbTrace> trace = ReadOpenbTrace(dir.path());
  ASSERT_THAT(trace, IsOk());
  ASSERT_EQ(trace->pods.size(), 2u);
  EXPECT_EQ(trace->pods[1].name, "p3");
  ASSERT_EQ(trace->set_aside.size(), 2u);
  EXPECT_EQ(trace->set_aside[0].line, 3);
  EXPECT_THAT(trace->set_aside[0].reason, HasSubstr("num_gpu: \"x\" is not an integer"));
  EXPECT_EQ(trace->set_aside[0].text, "p1,1,1,x,1000,,LS,Running,0,10,0");
  EXPECT_THAT(trace->set_aside[1].reason, HasSubstr(":4: creation_time"));  // beyond a century
}

TEST(ReadOpenbTrace, MissingColumnNamesFileAndColumn) {
  TestDir dir;
  // The published multigpu50 list has only these five columns.
  absl::Status status = ReadOpenbPods(dir.Write("pods.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n")).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.ToString(), HasSubstr("pods.csv:1: missing columns gpu_spec, qos, pod_phase, "
                                           "creation_time, deletion_time, scheduled_time"));

  status = ReadOpenbNodes(dir.Write("nodes.csv", "name,cpu_milli,memory_mib,gpu,model\n")).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.ToString(), HasSubstr("nodes.csv:1: missing column sn"));
}

TEST(ReadOpenbTrace, MissingFileIsNotFoundNamingThePath) {
  TestDir dir;
  absl::Status status = ReadOpenbTrace(dir.path()).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.ToString(), HasSubstr(dir.path() + "/" + kOpenbNodeFile));

  dir.Write(kOpenbNodeFile, kNodes);
  status = ReadOpenbTrace(dir.path(), "openb_pod_list_gpushare40.csv").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.ToString(), HasSubstr(dir.path() + "/openb_pod_list_gpushare40.csv"));
}

TEST(ReadOpenbTrace, RejectsValuesOutsideTheTraceModel) {
  TestDir dir;
  struct Case {
    const char* row;
    const char* message;
  };
  for (const Case& c : {
           Case{"p,1,1,2,500,,LS,Running,0,10,0\n", ":2: gpu_milli: 500 with num_gpu 2"},
           Case{"p,1,1,1,0,,LS,Running,0,10,0\n", ":2: gpu_milli: 0 with num_gpu 1"},
           Case{"p,1,1,1,1001,,LS,Running,0,10,0\n", ":2: gpu_milli: 1001 is outside"},
           Case{"p,1,1,-1,1000,,LS,Running,0,10,0\n", ":2: num_gpu: -1 is outside"},
           Case{"p,1,1,1,1000,,LS,Running,,10,0\n", ":2: creation_time: \"\" is not an integer"},
           Case{"p,1,1,1,1000,,LS,Running,0,-10,0\n", ":2: deletion_time: -10 is outside"},
           Case{",1,1,1,1000,,LS,Running,0,10,0\n", ":2: name: is empty"},
           Case{"p,1,1,1,1000,,LS,Running,0,10,0\np,1,1,1,1000,,LS,Running,0,10,0\n", ":3: name: \"p\" repeats line 2"},
       }) {
    absl::Status status = PodError(dir, c.row);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.row;
    EXPECT_THAT(status.ToString(), HasSubstr(c.message)) << c.row;
  }
}

TEST(ReadOpenbTrace, RejectsNodesWithoutUsableGpus) {
  TestDir dir;
  const std::string header = "sn,cpu_milli,memory_mib,gpu,model\n";
  absl::Status status = ReadOpenbNodes(dir.Write("n.csv", header + "n,1,1,2,\n")).status();
  EXPECT_THAT(status.ToString(), HasSubstr("n.csv:2: model: is empty on a node with 2 GPUs"));
  status = ReadOpenbNodes(dir.Write("n.csv", header + "n,1,1,100000,T4\n")).status();
  EXPECT_THAT(status.ToString(), HasSubstr("n.csv:2: gpu: 100000 is outside"));
  // A CPU-only node, as in the all-node list, is fine without a model.
  absl::StatusOr<std::vector<OpenbNode>> nodes = ReadOpenbNodes(dir.Write("n.csv", header + "n,1,1,0,\n"));
  ASSERT_THAT(nodes, IsOk());
  EXPECT_EQ((*nodes)[0].gpus, 0);
}

}  // namespace
}  // namespace fleetcap::openb
