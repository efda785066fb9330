"""``e2opt bench``: moves per CPU second, quality after a CPU budget, constructions, exact methods."""

from __future__ import annotations

from .command import Command, add_budgets


class BenchCmd(Command):
    name = "bench"
    help = "benchmarks: search throughput and quality, construction score and rate, per CPU budget"

    def add_arguments(self, parser):
        from ..exact.solve import EXACT_METHODS

        # the methods `bench exact` compares: those that enumerate perfect boards along variable orders
        enumerating = [
            name for name, entry in EXACT_METHODS.items() if entry.options.enumerates and entry.orders
        ]
        sub = parser.add_subparsers(dest="bench", required=True, metavar="KIND")
        speed = sub.add_parser("throughput", help="moves per CPU second for several hole counts")
        speed.add_argument("--instance", help="puzzle file (default: instances/eternity2.txt)")
        speed.add_argument("--holes", type=int, nargs="+", default=[16, 32, 64], metavar="K")
        speed.add_argument("--repeats", type=int, default=3, help="searches per hole count (median reported)")
        add_budgets(speed, cpu="CPU seconds per search (default 2)", default=2.0)
        quality = sub.add_parser("quality", help="best and median score per instance for a CPU budget")
        quality.add_argument("--config", required=True, help="YAML config whose search section is used")
        quality.add_argument(
            "--instances", nargs="+", metavar="PATH", help="puzzle files (default: the config's)"
        )
        add_budgets(quality, cpu="CPU seconds per seed", required=True)
        quality.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
        quality.add_argument(
            "--at",
            type=float,
            nargs="+",
            default=[],
            metavar="S",
            help="also report the scores at these CPU s",
        )
        quality.add_argument("--workers", type=int, default=1, help="searches run in parallel processes")
        quality.add_argument(
            "--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key"
        )
        build = sub.add_parser(
            "construct", help="the config's construction alone: score and rate per CPU budget"
        )
        build.add_argument("--config", required=True, help="YAML config whose construct section is used")
        add_budgets(build, cpu="CPU budgets (seconds)", nargs="+", required=True)
        build.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
        build.add_argument(
            "--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key"
        )
        exact = sub.add_parser(
            "exact", help="exact search: nodes, backtracks, CPU s per method and order (paper 004)"
        )
        exact.add_argument("puzzles", nargs="+", metavar="PUZZLE")
        exact.add_argument(
            "--methods",
            nargs="+",
            default=["dfs", "colorpairs"],
            choices=enumerating,
            help="methods that enumerate perfect boards along variable orders (default dfs colorpairs)",
        )
        exact.add_argument("--orders", nargs="+", default=["row", "spiral", "mindomain", "mingap"])
        exact.add_argument("--values", nargs="+", default=["min", "max", "mid"], help="value orders")
        exact.add_argument(
            "--first", action="store_true", help="to the first solution (default: all of them)"
        )
        add_budgets(exact, cpu="CPU seconds per search (default 10)", default=10.0)

    def run(self, args):
        from ..bench.runs import run_construct, run_quality, run_throughput

        if args.bench == "exact":
            from ..core.formats.read import read_puzzle
            from ..exact.compare import compare, format_compare

            puzzles = [read_puzzle(path) for path in args.puzzles]
            rows = compare(puzzles, args.methods, args.orders, args.values, not args.first, args.max_cpu_s)
            print(format_compare(rows, not args.first, args.max_cpu_s))
        elif args.bench == "construct":
            print(run_construct(args.config, args.max_cpu_s, args.seeds, args.set))
        elif args.bench == "throughput":
            print(run_throughput(args.instance, args.holes, args.repeats, args.max_cpu_s))
        else:
            print(
                run_quality(
                    args.config, args.instances, args.max_cpu_s, args.seeds, args.at, args.workers, args.set
                )
            )
        return 0
