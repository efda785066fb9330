"""The one run engine: a run is a team of workers (1 = in this process) driven by the coordinator, which
owns the run folder (events, best board, checkpoint, result); resume, progress, report and plots."""
