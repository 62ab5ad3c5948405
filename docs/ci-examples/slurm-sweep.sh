#!/bin/bash
# A 16-way seed sweep of kshim's deterministic tests on Slurm
# (docs/test.md#seed-sweeps). An example to copy.
#
# From the checkout, on a shared filesystem, build once, then submit the
# array and the merge that waits for all of it:
#   ./kshim build
#   jid=$(sbatch --parsable docs/ci-examples/slurm-sweep.sh)
#   sbatch --dependency=afterany:$jid --wrap \
#       './kshim junit-merge -o sweep.xml sweep-*.xml'
#
# --shard auto takes the task's place in the array's range: with
# --array=1-16 (or 0-15) task i is shard i - MIN + 1 of 16. A list with
# gaps (--array=1,4,9) gives no place and is refused.
#SBATCH --job-name=kshim-sweep
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --output=sweep-%a.log

set -e
cd "$SLURM_SUBMIT_DIR"
./kshim test --seeds 1024 --shard auto --jobs 2 \
	--junit "sweep-$SLURM_ARRAY_TASK_ID.xml" \
	--kcidb "kcidb-$SLURM_ARRAY_TASK_ID.json"
