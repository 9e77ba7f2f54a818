// Offline checks of rendered Kustomize output (deploy/README.md, "Tests").
//
//   node check_manifests.mjs [--bin NAME=PATH]... KUSTOMIZATION_DIR...
//
// Renders each directory with `kubectl kustomize`, then checks every object:
//  - against the Kubernetes schemas (kubernetes-models) and the Prometheus
//    operator's (@kubernetes-models/prometheus-operator);
//  - a CloudNativePG Cluster against the fields fleetcap relies on (no npm
//    package publishes CloudNativePG's schema);
//  - fleetcap's rules: every container has /healthz and /readyz probes,
//    requests and limits, and a non-root, read-only, unprivileged context; the
//    ingest's ClusterRole only gets, lists and watches what the ingest reads;
//  - with --bin for each fleetcap binary a container runs: every --flag it
//    passes appears in its command's --help (a container whose binary is not
//    given is a problem).
// Prints one line per problem, naming the object, and exits 1 if any.

import { execFileSync } from "node:child_process";
import { parseAllDocuments } from "yaml";

// What fleetcap-ingest k8s lists and watches (ingest/k8s/k8s_ingest.cc).
const INGEST_READS = {
  "": ["namespaces", "nodes", "pods"],
  apps: ["replicasets", "deployments", "statefulsets"],
  batch: ["jobs", "cronjobs"],
};
const READ_VERBS = ["get", "list", "watch"];
const WORKLOAD_KINDS = ["Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"];

function render(dir) {
  return execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8", maxBuffer: 64 << 20 });
}

function nameOf(obj) {
  return `${obj.kind}/${obj.metadata?.name ?? "?"}`;
}

async function schemaModel(obj) {
  const [group, version] = obj.apiVersion.includes("/") ? obj.apiVersion.split("/") : ["", obj.apiVersion];
  let modulePath;
  if (group === "monitoring.coreos.com") {
    modulePath = `@kubernetes-models/prometheus-operator/${group}/${version}/${obj.kind}`;
  } else if (group === "") {
    modulePath = `kubernetes-models/${version}/${obj.kind}`;
  } else {
    modulePath = `kubernetes-models/${group}/${version}/${obj.kind}`;
  }
  try {
    const module = await import(modulePath);
    return module[obj.kind];
  } catch {
    return undefined;
  }
}

// The CloudNativePG Cluster fields fleetcap's manifests use, by hand.
function checkCnpgCluster(obj, problems) {
  const spec = obj.spec ?? {};
  const where = nameOf(obj);
  if (!Number.isInteger(spec.instances) || spec.instances < 1) problems.push(`${where}: spec.instances must be an integer >= 1`);
  if (typeof spec.storage?.size !== "string") problems.push(`${where}: spec.storage.size must be a quantity string`);
  const initdb = spec.bootstrap?.initdb;
  if (typeof initdb?.database !== "string" || typeof initdb?.owner !== "string") {
    problems.push(`${where}: spec.bootstrap.initdb needs database and owner`);
  }
  for (const [key, value] of Object.entries(spec.postgresql?.parameters ?? {})) {
    if (typeof value !== "string") problems.push(`${where}: spec.postgresql.parameters.${key} must be a string`);
  }
  // With a standby, a commit must reach it before it is acknowledged: the
  // daemons drop what they hold once the store has committed it, so an
  // asynchronous standby promoted on failover would lose acknowledged rows.
  if (spec.instances > 1 && !(Number.isInteger(spec.minSyncReplicas) && spec.minSyncReplicas >= 1)) {
    problems.push(`${where}: ${spec.instances} instances without minSyncReplicas >= 1 (replication must be synchronous)`);
  }
  const known = ["instances", "imageName", "primaryUpdateStrategy", "bootstrap", "postgresql", "storage", "resources",
                 "monitoring", "affinity", "minSyncReplicas", "maxSyncReplicas"];
  for (const key of Object.keys(spec)) {
    if (!known.includes(key)) problems.push(`${where}: spec.${key} is not a Cluster field these checks know`);
  }
}

function podSpecOf(obj) {
  if (obj.kind === "CronJob") return obj.spec?.jobTemplate?.spec?.template?.spec;
  return obj.spec?.template?.spec;
}

function checkContainer(obj, pod, c, problems) {
  const where = `${nameOf(obj)} container ${c.name}`;
  if (c.livenessProbe?.httpGet?.path !== "/healthz") problems.push(`${where}: no livenessProbe on /healthz`);
  if (c.readinessProbe?.httpGet?.path !== "/readyz") problems.push(`${where}: no readinessProbe on /readyz`);
  for (const kind of ["requests", "limits"]) {
    for (const resource of ["cpu", "memory"]) {
      if (c.resources?.[kind]?.[resource] === undefined) problems.push(`${where}: no resources.${kind}.${resource}`);
    }
  }
  const sc = c.securityContext ?? {};
  const podSc = pod.securityContext ?? {};
  if ((sc.runAsNonRoot ?? podSc.runAsNonRoot) !== true) problems.push(`${where}: runAsNonRoot is not true`);
  if ((sc.runAsUser ?? podSc.runAsUser) === 0) problems.push(`${where}: runs as user 0`);
  if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
  if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation is not false`);
  if (sc.privileged === true) problems.push(`${where}: privileged`);
  if (!(sc.capabilities?.drop ?? []).includes("ALL")) problems.push(`${where}: capabilities do not drop ALL`);
  if ((sc.capabilities?.add ?? []).length > 0) problems.push(`${where}: adds capabilities`);
}

function checkFlags(obj, c, binaries, helpCache, problems) {
  const command = [...(c.command ?? []), ...(c.args ?? [])];
  if (command.length === 0) return;
  const binary = command[0];
  const sub = command[1] && !command[1].startsWith("-") ? [command[1]] : [];
  const key = [binary, ...sub].join(" ");
  if (!binaries.has(binary)) {
    problems.push(`${nameOf(obj)} container ${c.name}: runs ${binary}, not given with --bin`);
    return;
  }
  if (!helpCache.has(key)) {
    let help = "";
    try {
      help = execFileSync(binaries.get(binary), [...sub, "--help"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      help = `${e.stdout ?? ""}${e.stderr ?? ""}`;
    }
    helpCache.set(key, help);
  }
  const help = helpCache.get(key);
  for (const arg of command.slice(1 + sub.length)) {
    const flag = /^--([a-z0-9-]+)/.exec(arg)?.[1];
    if (flag === undefined) continue;
    if (!new RegExp(`--${flag}(?![a-z0-9-])`).test(help)) {
      problems.push(`${nameOf(obj)} container ${c.name}: ${key} has no flag --${flag}`);
    }
  }
}

function checkClusterRole(obj, problems) {
  if (!obj.metadata?.name?.includes("ingest-k8s")) {
    problems.push(`${nameOf(obj)}: a ClusterRole other than the ingest's`);
    return;
  }
  for (const [i, rule] of (obj.rules ?? []).entries()) {
    const where = `${nameOf(obj)} rule ${i}`;
    if (rule.nonResourceURLs) problems.push(`${where}: grants nonResourceURLs`);
    for (const verb of rule.verbs ?? []) {
      if (!READ_VERBS.includes(verb)) problems.push(`${where}: grants verb "${verb}" (only get, list, watch)`);
    }
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        if (!(INGEST_READS[group] ?? []).includes(resource)) {
          problems.push(`${where}: grants "${resource}" in group "${group}", which the ingest does not read`);
        }
      }
    }
  }
}

async function checkRendered(label, text, binaries, helpCache) {
  const problems = [];
  const objects = parseAllDocuments(text).map((d) => d.toJSON()).filter((o) => o);
  for (const obj of objects) {
    const where = `${label}: ${nameOf(obj)}`;
    if (obj.apiVersion === "postgresql.cnpg.io/v1" && obj.kind === "Cluster") {
      checkCnpgCluster(obj, problems);
    } else {
      const Model = await schemaModel(obj);
      if (Model === undefined) {
        problems.push(`${where}: no schema for ${obj.apiVersion} ${obj.kind}`);
      } else {
        try {
          new Model(obj).validate();
        } catch (e) {
          problems.push(`${where}: schema: ${e.message.replace(/\s+/g, " ")}`);
        }
      }
    }
    if (WORKLOAD_KINDS.includes(obj.kind)) {
      const pod = podSpecOf(obj) ?? {};
      for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
        checkContainer(obj, pod, c, problems);
        if (binaries.size > 0) checkFlags(obj, c, binaries, helpCache, problems);
      }
    }
    if (obj.kind === "ClusterRole" || obj.kind === "Role") checkClusterRole(obj, problems);
  }
  return { problems: problems.map((p) => (p.startsWith(label) ? p : `${label}: ${p}`)), count: objects.length };
}

async function main() {
  const args = process.argv.slice(2);
  const binaries = new Map();
  const dirs = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--bin") {
      const [name, file] = args[++i].split("=");
      binaries.set(name, file);
    } else {
      dirs.push(args[i]);
    }
  }
  if (dirs.length === 0) {
    console.error("usage: node check_manifests.mjs [--bin NAME=PATH]... KUSTOMIZATION_DIR...");
    process.exit(2);
  }
  const helpCache = new Map();
  let failed = false;
  for (const dir of dirs) {
    const { problems, count } = await checkRendered(dir, render(dir), binaries, helpCache);
    for (const p of problems) console.log(p);
    console.log(`${dir}: ${count} objects, ${problems.length} problems`);
    if (problems.length > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

await main();
