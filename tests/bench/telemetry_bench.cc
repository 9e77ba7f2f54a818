// The telemetry ingest benchmark, side by side in one run (docs/benchmarks.md):
//
// 1. remote_write receive: the same pre-encoded requests (20,000
//    DCGM-shaped series x 60 samples) posted by one load generator to
//    fleetcap-ingest's receiver (acknowledged when fsync'd in its sample
//    log) and to Prometheus 2.42's own receiver
//    (--web.enable-remote-write-receiver); then how long until every
//    minute row is in PostgreSQL.
// 2. store: usage_minute rows written by the telemetry writer (COPY in a
//    savepoint, as remote_write writes closed minutes) against plain
//    `psql \copy` of the same rows.
// 3. rollup tracking: the same rows as pods' shares through the writer with
//    usage_minute's change-tracking triggers (migration 0012) disabled and
//    enabled, two rounds each, alternating.
//
//   telemetry_bench [--series N] [--samples N] [--per-request N] [--connections N] [--rows N]

#include <curl/curl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/flags.h"
#include "common/pg_pool.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "ingest/telemetry/usage_writer.h"
#include "pqxx/pqxx"
#include "store/migrator.h"
#include "store/pg_usage_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"
#include "tests/telemetry/prometheus_process.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

constexpr const char* kDcgmMetrics[] = {"DCGM_FI_DEV_GPU_UTIL",     "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                                        "DCGM_FI_PROF_SM_ACTIVE",   "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
                                        "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_DEV_FB_USED",
                                        "DCGM_FI_DEV_POWER_USAGE",  "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"};
constexpr int kMetrics = 8;

// Series s is metric s % 8 of GPU s / 8: 8 GPUs a node, a pod on each GPU.
telemetry::Labels SeriesLabels(int s) {
  const int gpu = s / kMetrics;
  return {{"__name__", kDcgmMetrics[s % kMetrics]},
          {"UUID", absl::StrCat("GPU-bench-", gpu)},
          {"gpu", std::to_string(gpu % 8)},
          {"device", absl::StrCat("nvidia", gpu % 8)},
          {"modelName", "NVIDIA H100 80GB HBM3"},
          {"Hostname", absl::StrCat("node-", gpu / 8)},
          {"pod", absl::StrCat("train-", gpu)},
          {"namespace", "ml"},
          {"container", "main"},
          {"instance", absl::StrCat("10.0.", gpu / 8 / 250, ".", gpu / 8 % 250, ":9400")},
          {"job", "dcgm-exporter"}};
}

// Requests carry whole series (all their samples, in time order), as many
// series as fit in `per_request` samples.
std::vector<std::string> EncodeRequests(int series, int samples, int per_request, int64_t t0_ms) {
  std::vector<std::string> out;
  std::vector<telemetry::RawSeries> batch;
  int in_batch = 0;
  for (int s = 0; s < series; ++s) {
    telemetry::RawSeries rs{SeriesLabels(s), {}};
    for (int i = 0; i < samples; ++i) {
      const double v = s % kMetrics == 7 ? 1e9 + 700.0 * i * 1000 : static_cast<double>((s * 7 + i * 13) % 101);
      rs.points.push_back({t0_ms + i * 1000, v});
    }
    batch.push_back(std::move(rs));
    in_batch += samples;
    if (in_batch + samples > per_request) {
      out.push_back(telemetry::EncodeRemoteWrite(batch));
      batch.clear();
      in_batch = 0;
    }
  }
  if (!batch.empty()) out.push_back(telemetry::EncodeRemoteWrite(batch));
  return out;
}

struct LoadResult {
  double seconds = 0;
  int64_t ok = 0, failed = 0;
  std::string refusals;  // "429 x3, 0 x1" (0: no answer)
};

size_t Discard(char*, size_t size, size_t count, void*) { return size * count; }

// One load generator: `connections` threads with keep-alive, each posting
// the next request until all are sent; a request is retried until 2xx.
LoadResult Post(const std::string& url, const std::vector<std::string>& requests, int connections) {
  std::atomic<size_t> next{0};
  std::atomic<int64_t> ok{0}, failed{0};
  std::mutex refusals_mu;
  std::map<long, int> refusals;
  const absl::Time start = absl::Now();
  std::vector<std::thread> threads;
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&] {
      CURL* curl = curl_easy_init();
      curl_slist* headers = nullptr;
      headers = curl_slist_append(headers, "Content-Encoding: snappy");
      headers = curl_slist_append(headers, "Content-Type: application/x-protobuf");
      headers = curl_slist_append(headers, "X-Prometheus-Remote-Write-Version: 0.1.0");
      headers = curl_slist_append(headers, "Expect:");
      curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
      curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
      curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Discard);
      curl_easy_setopt(curl, CURLOPT_TIMEOUT, 120L);
      for (size_t i; (i = next.fetch_add(1)) < requests.size();) {
        for (int attempt = 0; attempt < 50; ++attempt) {
          curl_easy_setopt(curl, CURLOPT_POSTFIELDS, requests[i].data());
          curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(requests[i].size()));
          long status = 0;
          if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
          if (status >= 200 && status < 300) {
            ++ok;
            break;
          }
          ++failed;
          {
            std::lock_guard<std::mutex> lock(refusals_mu);
            ++refusals[status];
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
      }
      curl_slist_free_all(headers);
      curl_easy_cleanup(curl);
    });
  }
  for (auto& t : threads) t.join();
  std::string said;
  for (const auto& [status, n] : refusals) absl::StrAppend(&said, said.empty() ? "" : ", ", status, " x", n);
  return {absl::ToDoubleSeconds(absl::Now() - start), ok.load(), failed.load(), said.empty() ? "none" : said};
}

// CPU seconds (user + system) a process has used so far.
double CpuSeconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i >= 14) ticks += std::stod(field);  // utime, stime
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double OwnCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace
}  // namespace fleetcap

int main(int argc, char** argv) {
  using namespace fleetcap;
  int64_t series = 20'000, samples = 60, per_request = 2'000, connections = 8, rows = 200'000;
  FlagSet flags(
      "telemetry_bench",
      "[flags]\n\nremote_write receive (fleetcap vs Prometheus 2.42) and store side (writer vs psql \\copy).");
  flags.Int("series", &series, "DCGM-shaped series");
  flags.Int("samples", &samples, "samples per series (1 s apart)");
  flags.Int("per-request", &per_request, "samples per remote_write request");
  flags.Int("connections", &connections, "concurrent connections of the load generator");
  flags.Int("rows", &rows, "usage_minute rows for the store side");
  auto parsed = flags.Parse(Args(argc, argv));
  if (!parsed.ok() || parsed->help) {
    std::cerr << (parsed.ok() ? flags.Help() : std::string(parsed.status().message())) << "\n";
    return parsed.ok() ? 0 : 2;
  }
  curl_global_init(CURL_GLOBAL_ALL);

  // A private PostgreSQL with its default (durable) settings.
  const fleetcap::testing::TestDir bench_dir("bench");
  const std::string& pg_dir = bench_dir.path();
  auto pg = fleetcap::testing::Run({"/bin/bash", fleetcap::testing::SourcePath("scripts/pg.sh"), "start", pg_dir},
                                   absl::Seconds(120));
  if (pg.exit_code != 0) {
    std::cerr << "cannot start PostgreSQL: " << pg.err << "\n";
    return 1;
  }
  const std::string uri = pg.out.substr(0, pg.out.find('\n'));
  struct StopPg {  // before bench_dir goes
    std::string dir;
    ~StopPg() {
      std::string data;  // pg.sh may keep the data folder outside `dir`
      std::ifstream(dir + "/datadir") >> data;
      fleetcap::testing::Run({"/bin/bash", fleetcap::testing::SourcePath("scripts/pg.sh"), "stop", dir});
      fleetcap::testing::Run({"/bin/rm", "-rf", data});
    }
  } stop_pg{pg_dir};
  {
    pqxx::connection conn(uri);
    if (auto s = store::Migrator().EnsureCurrent(conn, true); !s.ok()) {
      std::cerr << s << "\n";
      return 1;
    }
  }

  const int64_t t0 = (absl::ToUnixMillis(absl::Now()) / 60'000 - 2) * 60'000;
  const absl::Time enc_start = absl::Now();
  auto requests =
      EncodeRequests(static_cast<int>(series), static_cast<int>(samples), static_cast<int>(per_request), t0);
  size_t bytes = 0;
  for (const auto& r : requests) bytes += r.size();
  const double total_samples = static_cast<double>(series * samples);
  std::printf(
      "workload: %lld series x %lld samples = %.0f samples in %zu requests (%.1f MB snappy), encoded in %.1fs; %lld "
      "connections\n",
      static_cast<long long>(series), static_cast<long long>(samples), total_samples, requests.size(), bytes / 1e6,
      absl::ToDoubleSeconds(absl::Now() - enc_start), static_cast<long long>(connections));

  // (a) fleetcap
  double fleetcap_rate = 0, prometheus_rate = 0;
  {
    auto ingest = fleetcap::testing::StartIngest(
        uri, "bench", {"--log-level", "warn", "--wal-dir", pg_dir + "/wal", "--settle", "1s"});
    if (!ingest.ok()) {
      std::cerr << ingest.status() << "\n";
      return 1;
    }
    const double cpu0 = CpuSeconds(ingest->process->pid()), own0 = OwnCpuSeconds();
    auto r = Post(ingest->write_url(), requests, static_cast<int>(connections));
    const absl::Time posted_at = absl::Now();
    fleetcap_rate = total_samples / r.seconds;
    std::printf(
        "fleetcap-ingest remote_write: %.2fs, %lld requests 2xx, %lld refused and retried (%s): %.0f samples/s\n",
        r.seconds, static_cast<long long>(r.ok), static_cast<long long>(r.failed), r.refusals.c_str(), fleetcap_rate);
    std::printf("  CPU while posting: fleetcap-ingest %.2fs, load generator %.2fs\n",
                CpuSeconds(ingest->process->pid()) - cpu0, OwnCpuSeconds() - own0);
    // The last minutes close once no sample came for --settle (1 s).
    auto written = fleetcap::testing::WaitUntilPushWritten(*ingest, absl::Seconds(120));
    const double all_in = r.seconds + absl::ToDoubleSeconds(absl::Now() - posted_at);
    pqxx::connection conn(uri);
    pqxx::nontransaction txn(conn);
    auto counts = txn.exec("SELECT count(*), sum(samples) FROM usage_minute WHERE pod_uid = ''");
    std::printf(
        "  every minute row in PostgreSQL %.2fs after the first request (%s): %s device-minute rows"
        " holding %s utilisation samples\n",
        all_in, written.ok() ? "settle 1 s included" : std::string(written.message()).c_str(), counts[0][0].c_str(),
        counts[0][1].c_str());
    const auto stopped = ingest->process->Stop(SIGTERM);
    if (!stopped.err.empty()) std::printf("  fleetcap-ingest said:\n%s", stopped.err.substr(0, 2000).c_str());
  }
  // (b) Prometheus 2.42's own receiver
  {
    auto prom =
        fleetcap::testing::StartPrometheus("global:\n  scrape_interval: 1h\n", {"--web.enable-remote-write-receiver"});
    if (!prom.ok()) {
      std::cerr << prom.status() << "\n";
      return 1;
    }
    const double cpu0 = CpuSeconds((*prom)->process->pid()), own0 = OwnCpuSeconds();
    auto r = Post((*prom)->url() + "/api/v1/write", requests, static_cast<int>(connections));
    prometheus_rate = total_samples / r.seconds;
    std::printf(
        "prometheus 2.42 remote_write: %.2fs, %lld requests 2xx, %lld refused and retried (%s): %.0f samples/s\n",
        r.seconds, static_cast<long long>(r.ok), static_cast<long long>(r.failed), r.refusals.c_str(), prometheus_rate);
    std::printf("  CPU while posting: prometheus %.2fs, load generator %.2fs\n",
                CpuSeconds((*prom)->process->pid()) - cpu0, OwnCpuSeconds() - own0);
  }
  std::printf("ratio fleetcap / prometheus: %.2f\n", fleetcap_rate / prometheus_rate);

  // Store side: the same usage_minute rows through the writer and through psql \copy.
  std::vector<telemetry::MinuteRow> minute_rows;
  for (int64_t i = 0; i < rows; ++i) {
    telemetry::MinuteRow r;
    r.device_id = absl::StrCat("GPU-store-", i % 20'000);
    r.minute_ms = t0 - (i / 20'000 + 1) * 60'000;
    r.node = absl::StrCat("node-", i % 20'000 / 8);
    r.model = "NVIDIA H100 80GB HBM3";
    r.util_mean = (i % 97) / 100.0;
    r.util_max = (i % 89) / 88.0;
    r.memory_used_bytes = int64_t{1} << 34;
    r.power_watts = 300.5;
    r.samples = 60;
    minute_rows.push_back(r);
  }
  auto pool = PgPool::Open(uri, 1);
  store::PgUsageRepository usage(pool->get());
  telemetry::UsageWriter writer(&usage, "store-bench");
  const absl::Time w0 = absl::Now();
  for (size_t a = 0; a < minute_rows.size(); a += 20'000) {
    std::vector<telemetry::MinuteRow> chunk(
        minute_rows.begin() + static_cast<long>(a),
        minute_rows.begin() + static_cast<long>(std::min(minute_rows.size(), a + 20'000)));
    auto n = writer.WriteMinuteRows(chunk);
    if (!n.ok()) {
      std::cerr << n.status() << "\n";
      return 1;
    }
  }
  const double writer_s = absl::ToDoubleSeconds(absl::Now() - w0);
  const std::string file = pg_dir + "/rows.tsv";
  {
    std::ofstream out(file);
    for (const auto& r : minute_rows) {
      out << "copy-bench\t" << r.device_id << "\t\t" << r.minute_ms / 1000 << "\t" << r.node << "\t" << r.model
          << "\t\t\t" << *r.util_mean << "\t" << *r.util_max << "\t" << *r.memory_used_bytes << "\t" << *r.power_watts
          << "\t" << r.samples << "\n";
    }
  }
  // psql \copy reads timestamptz as text: the file gets the minute so.
  {
    std::ifstream in(file);
    std::ofstream out(file + ".ts");
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      size_t p = 0, q;
      while ((q = line.find('\t', p)) != std::string::npos) {
        f.push_back(line.substr(p, q - p));
        p = q + 1;
      }
      f.push_back(line.substr(p));
      f[3] = absl::FormatTime("%Y-%m-%d %H:%M:%S+00", absl::FromUnixSeconds(std::stoll(f[3])), absl::UTCTimeZone());
      for (size_t i = 0; i < f.size(); ++i) out << (i ? "\t" : "") << f[i];
      out << "\n";
    }
  }
  const absl::Time c0 = absl::Now();
  auto copy =
      fleetcap::testing::Run({"/usr/bin/psql", "-q", uri, "-c",
                              "\\copy usage_minute (cluster, device_id, pod_uid, minute, node, model, namespace, pod,"
                              " util_mean, util_max, memory_used_bytes, power_watts, samples) FROM '" +
                                  file + ".ts'"});
  const double copy_s = absl::ToDoubleSeconds(absl::Now() - c0);
  if (copy.exit_code != 0) {
    std::cerr << "psql \\copy failed: " << copy.err << "\n";
    return 1;
  }
  std::printf(
      "store: %lld usage_minute rows; writer (COPY in a savepoint, 20,000 a batch) %.2fs = %.0f rows/s;"
      " psql \\copy %.2fs = %.0f rows/s; ratio %.2f\n",
      static_cast<long long>(rows), writer_s, rows / writer_s, copy_s, rows / copy_s, copy_s / writer_s);

  // The hourly rollups' change tracking (migration 0012's statement-level
  // triggers on usage_minute), before and after: the same rows as pods'
  // shares (the rows it tracks), through the writer, with the triggers
  // disabled (as before 0012) and enabled, each round into a cluster of its own.
  for (auto& r : minute_rows) {
    r.pod_uid = absl::StrCat("uid-", r.device_id);
    r.namespace_ = "ml";
    r.pod = absl::StrCat("pod-", r.device_id);
  }
  // Four rounds, alternating, so that neither side is always the one
  // writing into the larger index.
  double tracked_s[2] = {0, 0};
  for (int round = 0; round < 4; ++round) {
    const int tracked = round % 2;
    try {
      pqxx::connection admin(uri);
      pqxx::work txn(admin);
      const char* verb = tracked ? "ENABLE" : "DISABLE";
      for (const char* trigger : {"usage_minute_inserted", "usage_minute_updated"}) {
        txn.exec(absl::StrCat("ALTER TABLE usage_minute ", verb, " TRIGGER ", trigger));
      }
      txn.commit();
    } catch (const std::exception& e) {
      std::cerr << "switching usage_minute's triggers: " << e.what() << "\n";
      return 1;
    }
    telemetry::UsageWriter pod_writer(&usage, absl::StrCat("rollup-", round));
    const absl::Time t = absl::Now();
    for (size_t a = 0; a < minute_rows.size(); a += 20'000) {
      std::vector<telemetry::MinuteRow> chunk(
          minute_rows.begin() + static_cast<long>(a),
          minute_rows.begin() + static_cast<long>(std::min(minute_rows.size(), a + 20'000)));
      if (auto n = pod_writer.WriteMinuteRows(chunk); !n.ok()) {
        std::cerr << n.status() << "\n";
        return 1;
      }
    }
    tracked_s[tracked] += absl::ToDoubleSeconds(absl::Now() - t);
  }
  std::printf(
      "rollup tracking: 2 x %lld pod usage_minute rows through the writer, alternating; without usage_minute's"
      " triggers %.2fs = %.0f rows/s; with them %.2fs = %.0f rows/s; ratio %.2f\n",
      static_cast<long long>(rows), tracked_s[0], 2 * rows / tracked_s[0], tracked_s[1], 2 * rows / tracked_s[1],
      tracked_s[0] / tracked_s[1]);
  return 0;
}
