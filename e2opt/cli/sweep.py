"""``e2opt sweep`` and ``e2opt sweep-report``: a parameter sweep's options; the work is in sweep/."""

from __future__ import annotations

from pathlib import Path

from ..config.schema import process_count_problem
from ..core.errors import E2optError
from . import exits
from .command import Command, add_budgets, add_executor_options, budget_overrides


class SweepCmd(Command):
    name = "sweep"
    help = "run a parameter sweep (grid x variants x seeds) on local processes or a Dask cluster"

    def add_arguments(self, parser):
        parser.add_argument("sweep", nargs="?", help="sweep file, e.g. config/sweeps/holes.yaml")
        parser.add_argument(
            "--resume",
            metavar="SWEEP_DIR",
            help="finish a sweep: skip finished runs, resume or start the others",
        )
        parser.add_argument(
            "--workers",
            type=int,
            metavar="N",
            help="runs at a time (default: cores / CP-SAT workers per run)",
        )
        add_executor_options(parser, "runs")
        parser.add_argument(
            "--set",
            action="append",
            default=[],
            metavar="KEY.PATH=VALUE",
            help="override a value in every run",
        )
        add_budgets(
            parser,
            wall="wall-clock budget of every run (as --set stop.max_wall_s=S)",
            cpu="CPU budget of every run (as --set stop.max_cpu_s=S)",
        )
        parser.add_argument(
            "--seeds", metavar="N|S1,S2,…", help="replace the sweep's seeds: a count or a list"
        )
        parser.add_argument("--runs-dir", help="where the sweep folder goes (default: output.runs_dir)")

    def run(self, args):
        from ..sweep import Sweep, check_configs, check_executor, create_sweep, load_sweep, run_sweep
        from ..sweep.report import write_summary

        if (args.sweep is None) == (args.resume is None):
            raise E2optError("sweep: give a sweep file, or --resume SWEEP_DIR")
        check_executor(args.executor, args.scheduler)
        problem = None if args.workers is None else process_count_problem(args.workers)
        if problem:
            raise E2optError(f"--workers {args.workers}: {problem}")
        overrides = [*args.set, *budget_overrides(args)]
        if args.resume:
            if overrides or args.seeds or args.runs_dir:
                raise E2optError(
                    "--resume continues a sweep as it was expanded: no --set, --max-wall-s, --max-cpu-s, "
                    "--seeds or --runs-dir"
                )
            sweep_dir = Path(args.resume)
            sweep = Sweep.load(sweep_dir)
            check_configs(sweep, sweep_dir)
        else:
            sweep = load_sweep(args.sweep, overrides, args.seeds)
            sweep_dir = create_sweep(sweep, args.runs_dir)
        outcome = run_sweep(sweep, sweep_dir, args.executor, args.workers, args.scheduler)
        print(write_summary(sweep_dir))
        counts = ", ".join(f"{n} {status}" for status, n in outcome.counts.items())
        print(f"sweep {sweep.name}: {counts}; folder {sweep_dir}")
        if outcome.interrupted:
            exits.tell(f"interrupted: continue with  e2opt sweep --resume {sweep_dir}")
            return exits.stop_code(outcome.stop_reason)
        return exits.NEGATIVE if outcome.counts.get("failed") else exits.DONE


class SweepReportCmd(Command):
    name = "sweep-report"
    help = "rebuild a sweep's summary.csv, summary.md and plots from its run folders"

    def add_arguments(self, parser):
        parser.add_argument("sweep_dir")

    def run(self, args):
        from ..sweep.report import write_summary

        print(write_summary(args.sweep_dir))
        return 0
