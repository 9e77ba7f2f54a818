// Prints the rule groups of a PrometheusRule manifest (its `spec`) as a
// Prometheus rules file, for `promtool check rules` and `promtool test rules`
// (scripts/check_deploy.sh).
//
//   node rule_groups.mjs prometheus-rules.yaml > rules.yaml
import { readFileSync } from "node:fs";
import { parse, stringify } from "yaml";

const manifest = parse(readFileSync(process.argv[2], "utf8"));
if (manifest?.kind !== "PrometheusRule") {
  console.error(`${process.argv[2]}: not a PrometheusRule`);
  process.exit(1);
}
process.stdout.write(stringify(manifest.spec));
