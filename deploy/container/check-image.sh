#!/usr/bin/env bash
# Proves the image and the Kubernetes manifest's daemon commands on a Debian 12 machine, as root,
# with nothing but Debian's packages (no registry):
#   1. installs podman, runc, debootstrap, curl and python3-yaml;
#   2. makes the `debian:12` base image with debootstrap (no pull);
#   3. builds deploy/container/Containerfile's image (this compiles Cairn: tens of minutes);
#   4. checks the image: every library its programs need is there, it runs as user 999;
#   5. runs the solver pool, the coordinator and two workers from the image, in one pod (its own
#      network namespace, like a Kubernetes pod), each with the args, Secret files, volume
#      paths and fsGroup that deploy/kubernetes/cairn.yaml gives it (the manifest's Service
#      names resolve to the pod's loopback; one solver pool replica stands for both);
#   6. submits examples/maze.c with the image's `cairn` client and the manifest's jobs API
#      token, waits, fetches the results, checks them against `cairn run` of the same program in
#      the image and replays each of the job's tests with `cairn replay` in the image; then
#      examples/sign.c with --libc full the same way (musl's headers and bitcode in the image);
#   7. checks the dashboard, /healthz and /metrics over HTTP;
#   8. removes everything it made. Any failed step ends the script with a message and exit 1.
# Not part of the test suite (too slow). Environment: CAIRN_CHECK_DIR (work directory: podman's
# storage, logs, results; default: a new temporary directory), CAIRN_CHECK_KEEP=1 (keep the
# work directory, the image and the logs), CAIRN_CHECK_MIRROR (Debian mirror for debootstrap,
# default http://deb.debian.org/debian), CAIRN_CHECK_STORAGE_DRIVER (overlay, the default, or
# vfs).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
manifest=$root/deploy/kubernetes/cairn.yaml
work=${CAIRN_CHECK_DIR:-$(mktemp -d -t cairn-check-image.XXXXXX)}
mirror=${CAIRN_CHECK_MIRROR:-http://deb.debian.org/debian}
driver=${CAIRN_CHECK_STORAGE_DRIVER:-overlay}
image=localhost/cairn:check
pod=cairn-check

step() { echo "check-image: $*"; }
fail() { echo "check-image: FAILED: $*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || fail "run as root (podman builds and runs the image as root here)"
grep -q '^VERSION_ID="12"' /etc/os-release 2>/dev/null ||
  step "warning: not Debian 12; the packages below are Debian 12's names"

step "installing podman, runc, debootstrap, curl, python3-yaml"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || fail "apt-get update failed"
apt-get install -y -qq --no-install-recommends podman runc catatonit debootstrap curl python3-yaml \
  ca-certificates >/dev/null 2>&1 || fail "installing the packages failed"

mkdir -p "$work"
step "work directory $work"
# runc (crun refuses hybrid cgroup hierarchies) and limits no higher than this shell's own, which
# a root without CAP_SYS_RESOURCE cannot raise (podman's defaults are higher).
nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
[[ $nofile == unlimited || $nofile -gt 1048576 ]] && nofile=1048576
[[ $nproc == unlimited || $nproc -gt 16384 ]] && nproc=16384
cat >"$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
EOF
export CONTAINERS_CONF=$work/containers.conf
podman() { command podman --root "$work/storage" --runroot "$work/run" --storage-driver "$driver" "$@"; }

cleanup() {
  local rc=$?
  if [[ ${CAIRN_CHECK_KEEP:-0} == 1 ]]; then
    step "kept $work (podman --root $work/storage --runroot $work/run --storage-driver $driver ...)"
  else
    podman pod rm -f -t 5 "$pod" >/dev/null 2>&1 || true
    podman rmi -a -f >/dev/null 2>&1 || true
    rm -rf "$work" || step "could not remove all of $work"
  fi
  exit $rc
}
trap cleanup EXIT

step "making debian:12 with debootstrap from $mirror"
debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  fail "debootstrap failed; see $work/debootstrap.log (CAIRN_CHECK_KEEP=1 keeps it)"
rm -f "$work/rootfs/etc/apt/sources.list"
cat >"$work/rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
rm -rf "$work"/rootfs/var/lib/apt/lists/* "$work"/rootfs/var/cache/apt/*.bin
tar -C "$work/rootfs" -c . | podman import --change 'CMD ["bash"]' - debian:12 >"$work/import.log" 2>&1 ||
  { cat "$work/import.log" >&2; fail "podman import of the base image failed"; }
rm -rf "$work/rootfs"

step "building the image (deploy/container/Containerfile; log in $work/build.log)"
start=$(date +%s)
podman build --pull=never --network host -f "$root/deploy/container/Containerfile" -t "$image" \
  "$root" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; fail "the image build failed"; }
build_s=$(($(date +%s) - start))
size=$(podman image inspect -f '{{.Size}}' "$image")
step "built in ${build_s} s; image size $((size / 1000000)) MB"

step "checking the image's libraries and user"
missing=$(podman run --rm --network none "$image" sh -c 'ldd /usr/local/bin/* | grep "not found" || true')
[[ -z $missing ]] || fail "libraries missing in the image: $missing"
uid=$(podman run --rm --network none "$image" id -u)
[[ $uid == 999 ]] || fail "the image runs as uid $uid, the manifest's fsGroup expects the cairn user 999"
podman run --rm --network none "$image" sh -c \
  'test -r /opt/cairn/build/runtime/cairn-runtime.bc && test -r /opt/cairn/runtime/include/cairn.h && command -v clang-15 >/dev/null' ||
  fail "the runtime bitcode, its header or clang-15 is missing from the image"

# The manifest's workloads as podman options (its Secrets' files, volumes, fsGroup) and args.
step "reading $manifest"
mkdir -p "$work/plan" "$work/out"
chown 999:999 "$work/out" # the client in the image writes there as the cairn user
python3 - "$manifest" "$work" <<'EOF' || fail "cannot read the manifest's workloads"
import os, sys, yaml
manifest, work = sys.argv[1], sys.argv[2]
docs = [d for d in yaml.safe_load_all(open(manifest)) if d]
secrets = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Secret"}
for d in docs:
    if d["kind"] not in ("Deployment", "StatefulSet"):
        continue
    name, spec = d["metadata"]["name"], d["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    opts = []
    if "fsGroup" in spec.get("securityContext", {}):
        opts += ["--group-add", str(spec["securityContext"]["fsGroup"])]
    volumes = {v["name"]: v for v in spec.get("volumes", [])}
    for m in container.get("volumeMounts", []):
        v = volumes[m["name"]]
        if "secret" in v:
            src = os.path.join(work, "secrets", v["secret"]["secretName"])
            os.makedirs(src, exist_ok=True)
            for key, value in secrets[v["secret"]["secretName"]]["stringData"].items():
                with open(os.path.join(src, key), "w") as f:
                    f.write(value)
        elif "persistentVolumeClaim" in v:
            src = os.path.join(work, "volumes", v["persistentVolumeClaim"]["claimName"])
            os.makedirs(src, exist_ok=True)
            # As a volume under fsGroup: root's, group-writable by the pod's group.
            os.chown(src, 0, int(spec["securityContext"]["fsGroup"]))
            os.chmod(src, 0o2770)
        else:
            sys.exit(f"{name}: volume {m['name']} is neither a Secret nor a claim")
        opts += ["-v", src + ":" + m["mountPath"] + (":ro" if m.get("readOnly") else "")]
    for kind, items in (("opts", opts), ("args", container["args"])):
        with open(os.path.join(work, "plan", f"{name}.{kind}"), "w") as f:
            f.write("".join(item + "\0" for item in items))
    print(name, " ".join(container["args"]))
EOF
for w in cairn-server cairn-solver-pool cairn-worker; do
  [[ -f $work/plan/$w.args ]] || fail "the manifest has no workload $w"
done
# The manifest's Service names, as the cluster's DNS would give them, on the pod's loopback.
printf '127.0.0.1 localhost cairn-server cairn-solver-pool-0.cairn-solver-pool cairn-solver-pool-1.cairn-solver-pool\n' \
  >"$work/hosts"

step "starting the pod: a solver pool, the coordinator, two workers"
podman pod create --name "$pod" --network none >/dev/null || fail "podman pod create failed"
run_workload() { # NAME CONTAINER-NAME [ARG-FROM ARG-TO]: the manifest's workload NAME
  local name=$1 cname=$2 opts args
  mapfile -d '' opts <"$work/plan/$name.opts"
  mapfile -d '' args <"$work/plan/$name.args"
  if (($# == 4)); then args=("${args[@]/#$3/$4}"); fi
  podman run -d --pod "$pod" --name "$cname" -v "$work/hosts:/etc/hosts:ro" "${opts[@]}" "$image" \
    "${args[@]}" >/dev/null || fail "podman run of $cname failed"
}
# Waits until CONTAINER's output has a line starting with PREFIX.
await_line() {
  local cname=$1 prefix=$2
  for _ in $(seq 300); do
    podman logs "$cname" 2>/dev/null | grep -q "^$prefix" && return 0
    [[ $(podman inspect -f '{{.State.Running}}' "$cname") == true ]] || break
    sleep 0.2
  done
  podman logs "$cname" >&2 || true
  fail "$cname did not print '$prefix' (its output is above)"
}
# Pod-local HTTP: the pod has its own network namespace (its infra container's, running once the
# first workload runs).
# Job data needs the jobs API's token over HTTP too (http_get_job sends it).
http_get() { nsenter --net="/proc/$infra_pid/ns/net" curl -fsS --max-time 10 "http://127.0.0.1:7480$1"; }
http_get_job() {
  nsenter --net="/proc/$infra_pid/ns/net" curl -fsS --max-time 10 \
    -H "Authorization: Bearer $(head -n1 "$work/secrets/cairn-tokens/tokens")" "http://127.0.0.1:7480$1"
}

run_workload cairn-solver-pool check-pool
infra_pid=$(podman inspect -f '{{.State.Pid}}' "$(podman pod inspect -f '{{.InfraContainerID}}' "$pod")")
await_line check-pool "listening on "
run_workload cairn-server check-server
await_line check-server "dashboard on "
run_workload cairn-worker check-worker-1
# Both workers serve their health port in one network namespace: the second on another one.
run_workload cairn-worker check-worker-2 0.0.0.0:7490 0.0.0.0:7491
await_line check-worker-1 "health on "
await_line check-worker-2 "health on "
for _ in $(seq 100); do
  http_get /metrics 2>/dev/null | grep -q '^cairn_workers 2$' && break
  sleep 0.2
done
http_get /metrics | grep -q '^cairn_workers 2$' ||
  { podman logs check-server >&2; fail "the workers did not register with the coordinator"; }

client() { # runs the image's cairn in the pod with the examples and the output directory
  podman run --rm --pod "$pod" -v "$work/hosts:/etc/hosts:ro" \
    -v "$work/secrets/cairn-tokens:/etc/cairn:ro" -v "$root/examples:/examples:ro" \
    -v "$work/out:/out" "$image" cairn "$@"
}
count() { find "$work/out/$1" -name "$2" | wc -l; }
field() { grep -o "\"$2\": [0-9]*" "$work/out/$1/summary.json" | head -1 | grep -o '[0-9]*$'; }
# Submits /examples/PROGRAM with FLAGS as job NAME, waits, fetches its results into /out/NAME and
# requires cairn run's paths, tests and errors for the same program and flags in the image
# (/out/NAME-run); sets $job.
check_job() {
  local name=$1 program=$2 d
  shift 2
  step "submitting examples/$program $*"
  job=$(client submit --server cairn-server:7470 --token-file /etc/cairn/tokens --search dfs "$@" \
    --name "$name" "/examples/$program") || fail "cairn submit of $program failed"
  step "job $job; waiting"
  client wait --server cairn-server:7470 --token-file /etc/cairn/tokens --timeout 600 "$job" ||
    { podman logs check-server >&2; fail "job $job did not complete"; }
  client results --server cairn-server:7470 --token-file /etc/cairn/tokens --output-dir "/out/$name" \
    "$job" >/dev/null || fail "cairn results of $job failed"
  client run --search dfs "$@" --output-dir "/out/$name-run" "/examples/$program" >/dev/null 2>&1 ||
    fail "cairn run of $program $* in the image failed"
  for d in "$name" "$name-run"; do
    [[ -f $work/out/$d/summary.json ]] || fail "no summary.json in $d"
  done
  for f in paths_completed tests; do
    [[ $(field "$name" $f) == "$(field "$name-run" $f)" ]] ||
      fail "the job's $f ($(field "$name" $f)) differs from cairn run's ($(field "$name-run" $f))"
  done
  [[ $(count "$name" '*.ktest') == "$(count "$name-run" '*.ktest')" &&
     $(count "$name" '*.err') == "$(count "$name-run" '*.err')" ]] ||
    fail "the job wrote $(count "$name" '*.ktest') tests and $(count "$name" '*.err') errors, cairn run $(count "$name-run" '*.ktest') and $(count "$name-run" '*.err')"
  (($(count "$name" '*.ktest') > 0)) || fail "the job wrote no test"
  step "results: $(field "$name" paths_completed) paths, $(count "$name" '*.ktest') tests, $(count "$name" '*.err') errors (cairn run: the same)"
}
check_job job maze.c
maze_job=$job
# The replay archive and clang-15's sanitizer runtimes in the image: every test of the job replays.
tests=$(count job '*.ktest')
replayed=$(client replay /examples/maze.c /out/job | tail -1) || fail "cairn replay of the job's tests failed"
[[ $replayed == "$tests of $tests tests reproduced" ]] || fail "cairn replay of the job's tests: $replayed"
step "replay in the image: $replayed"
# The full libc: compiled against musl's headers by the client, linked with the POSIX runtime and
# musl's bitcode by the coordinator, run so by the workers.
check_job job-full sign.c --libc full
job=$maze_job

step "checking the dashboard over HTTP"
http_get / | grep -qi '<html' || fail "the dashboard page did not load"
[[ $(http_get /healthz) == ok ]] || fail "/healthz did not answer ok"
http_get "/api/jobs/$job" >/dev/null 2>&1 && fail "/api/jobs/$job answered without the jobs API token"
http_get_job "/api/jobs/$job" | grep -q '"JOB_COMPLETED"' || fail "/api/jobs/$job does not show the job completed"
http_get /metrics | grep -q '^cairn_jobs{state="completed"} 2$' || fail "/metrics does not count the completed jobs"

step "stopping the daemons (SIGTERM)"
for c in check-worker-2 check-worker-1 check-server check-pool; do
  podman stop -t 10 "$c" >/dev/null
  [[ $(podman inspect -f '{{.State.ExitCode}}' "$c") == 0 ]] ||
    { podman logs "$c" >&2; fail "$c did not exit 0 on SIGTERM"; }
done
step "OK: the image builds, its daemons run with the manifest's commands, and a job completes"
