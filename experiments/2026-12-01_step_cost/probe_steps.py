import glob
import statistics
import sys

import mlflow

for tag in sys.argv[1:]:
    per = []
    for db in sorted(glob.glob(f"/tmp/prof/{tag}/job*/mlflow.db")):
        c = mlflow.MlflowClient(f"sqlite:///{db}")
        (run,) = c.search_runs(c.get_experiment_by_name("watercolor").experiment_id)
        h = {
            n: [
                m.value
                for m in sorted(c.get_metric_history(run.info.run_id, n), key=lambda m: m.step)
            ][1:]
            for n in ["step_time", "generation_s", "reward_wall_s"]
        }
        per.append({n: statistics.fmean(v) for n, v in h.items()})
    n = len(per)
    st = statistics.fmean(p["step_time"] for p in per)
    print(
        tag,
        "jobs",
        n,
        "step_s",
        round(st, 1),
        "steps/h",
        round(n * 3600 / st),
        {k: round(statistics.fmean(p[k] for p in per), 1) for k in per[0]},
    )
