#!/bin/bash
# The MPI example under Slurm (docs/mpi.md): one task per cluster. Each
# task boots its own QEMU cluster through the ICD, or, on hosts that drive
# boards, reaches the board its node owns (HARTPOOL_DEVICE below).
#
#   sbatch --nodes=2 --ntasks-per-node=2 examples/mpi/slurm.sh
#SBATCH --job-name=hartpool-mpi
#SBATCH --time=00:10:00
#SBATCH --cpus-per-task=2
set -euo pipefail
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$PWD/build/host/hartpool.icd}
export HARTPOOL_HARTS=${HARTPOOL_HARTS:-8}
# hwloc's OpenCL component would boot a device in every srun/mpirun step
export HWLOC_COMPONENTS=-opencl
# A node with boards on serial lines: task i of the node takes line i
# (HARTPOOL_DEVICE=serial:/dev/ttyUSB<local id>), e.g.
#   export HARTPOOL_DEVICE_FMT='serial:/dev/ttyUSB%d,baud=921600'
srun --kill-on-bad-exit=1 bash -c '
	if [ -n "${HARTPOOL_DEVICE_FMT:-}" ]; then
		export HARTPOOL_DEVICE=$(printf "$HARTPOOL_DEVICE_FMT" "$SLURM_LOCALID")
	fi
	exec ./mpi_cl 256'
