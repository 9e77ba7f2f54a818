#!/usr/bin/env python3
"""An independent check of the forecast engine's backtest (docs/forecast.md).

Reads the series and the rolling-origin splits the engine's backtest scored
(`forecast_backtest --csv OUT` writes OUT/series.csv, splits.csv and
fleetcap.csv), forecasts the same origins with statsmodels' Holt-Winters
(`ExponentialSmoothing`) and its state-space ETS (`ETSModel`), the seasonal
naive and the last value, scores them with the same MASE (mean absolute error
over the horizon divided by the in-sample mean absolute error of the
scale_season naive forecast, averaged over the origins) and prints a markdown
table per backtest, the engine's figures beside.

    build/debug/tests/bench/forecast_backtest --csv build/debug/forecast-backtest
    /usr/bin/python3 scripts/forecast_statsmodels.py build/debug/forecast-backtest [--sets openb_24h,genai_1h]

Debian: python3-statsmodels (scripts/bootstrap.sh).
"""
import argparse
import collections
import csv
import math
import statistics
import sys
import warnings

import numpy as np

try:
    from statsmodels.tsa.exponential_smoothing.ets import ETSModel
    from statsmodels.tsa.holtwinters import ExponentialSmoothing
except ImportError:  # pragma: no cover
    sys.exit("forecast_statsmodels: statsmodels is missing (apt-get install python3-statsmodels)")

# The season statsmodels' models use: a day of hours for the hourly series
# (two weeks of history hold too few weeks for a weekly one), the plan's own
# season otherwise.
HOURLY_SEASON = 24


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def mase_scale(y, end, season):
    if end <= season:
        return 0.0
    return float(np.mean(np.abs(y[season:end] - y[: end - season])))


def seasonal_naive(history, horizon, season):
    m = season if len(history) >= season else 1
    last = history[-m:]
    return np.array([last[h % m] for h in range(horizon)])


def holt_winters(history, horizon, season):
    # Heuristic starting states (Hyndman et al. 2008), as ETSModel below, and
    # no brute-force grid before the optimiser: an estimated start fits
    # 2 + season more parameters, and the grid triples a fit's time.
    model = ExponentialSmoothing(
        history, trend="add", damped_trend=True, seasonal="add", seasonal_periods=season,
        initialization_method="heuristic")
    return np.asarray(model.fit(use_brute=False).forecast(horizon))


def ets(history, horizon, season):
    model = ETSModel(
        history, error="add", trend="add", damped_trend=True, seasonal="add", seasonal_periods=season,
        initialization_method="heuristic")
    return np.asarray(model.fit(disp=False).forecast(horizon))


MODELS = [
    ("seasonal naive", lambda h, n, m, scale_m: seasonal_naive(h, n, scale_m)),
    ("last value", lambda h, n, m, scale_m: np.full(n, h[-1])),
    ("ExponentialSmoothing", lambda h, n, m, scale_m: holt_winters(h, n, m)),
    ("ETSModel", lambda h, n, m, scale_m: ets(h, n, m)),
]


def score_series(y, splits):
    """MASE per model, averaged over the series' origins; failures counted."""
    sums = collections.defaultdict(float)
    failures = collections.Counter()
    origins = 0
    for split in splits:
        origin, horizon = int(split["origin"]), int(split["horizon"])
        season = int(split["season_points"]) or HOURLY_SEASON
        scale_season = int(split["scale_season"])
        scale = mase_scale(y, origin, scale_season)
        if scale <= 0:
            continue
        history, actual = y[:origin], y[origin:origin + horizon]
        origins += 1
        for name, forecast in MODELS:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    f = forecast(history, horizon, season, scale_season)
                if not np.all(np.isfinite(f)):
                    raise ValueError("not finite")
            except Exception:  # a fit that fails scores as the seasonal naive
                failures[name] += 1
                f = seasonal_naive(history, horizon, scale_season)
            sums[name] += float(np.mean(np.abs(actual - np.maximum(f, 0.0)))) / scale
    return {name: sums[name] / origins for name, _ in MODELS} if origins else None, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", help="the folder forecast_backtest --csv wrote")
    parser.add_argument("--sets", default="", help="comma-separated sets to score (default: all)")
    args = parser.parse_args()
    wanted = set(filter(None, args.sets.split(",")))

    values = collections.defaultdict(list)
    for row in read_csv(f"{args.dir}/series.csv"):
        values[(row["set"], row["series"])].append(float(row["value"]))
    splits = collections.defaultdict(list)
    for row in read_csv(f"{args.dir}/splits.csv"):
        splits[(row["set"], row["series"])].append(row)
    engine = {(row["set"], row["series"]): row for row in read_csv(f"{args.dir}/fleetcap.csv")}

    sets = [s for s in dict.fromkeys(k[0] for k in values) if not wanted or s in wanted]
    for set_name in sets:
        names = ["fleetcap"] + [name for name, _ in MODELS]
        print(f"\n### {set_name}\n")
        print("| series | fleetcap model (origins) | " + " | ".join(f"MASE {n}" for n in names) + " |")
        print("|---" * (len(names) + 2) + "|")
        columns = collections.defaultdict(list)
        all_failures = collections.Counter()
        for key in [k for k in values if k[0] == set_name]:
            if key not in engine:
                continue
            scores, failures = score_series(np.array(values[key]), splits[key])
            if scores is None:
                continue
            all_failures.update(failures)
            scores = {"fleetcap": float(engine[key]["mase_model"]), **scores}
            for n in names:
                columns[n].append(scores[n])
            cells = " | ".join(f"{scores[n]:.3f}" for n in names)
            print(f"| `{key[1]}` | {engine[key]['models_chosen']} | {cells} |")
        medians = " | ".join(f"**{statistics.median(columns[n]):.3f}**" for n in names)
        print(f"| **median of {len(columns['fleetcap'])}** | | {medians} |")
        wins = ", ".join(
            f"{n} {sum(a < b for a, b in zip(columns['fleetcap'], columns[n]))}" for n in names[1:])
        print(f"\nfleetcap's MASE is lower than: {wins} (of {len(columns['fleetcap'])} series).")
        if all_failures:
            print("Fits that failed (scored as the seasonal naive): "
                  + ", ".join(f"{n} {c}" for n, c in sorted(all_failures.items())))


if __name__ == "__main__":
    main()
