// SPDX-License-Identifier: GPL-2.0
/*
 * The shard of a seed sweep (kshim_test_shard.h): parsed from --shard
 * K/N, KSHIM_SHARD, or the variables CI engines set in each job of a
 * parallel or array job. Every malformed or contradictory value is an
 * error, never a guess: a sweep that silently ran the wrong seeds would
 * leave seeds unchecked while every job reports success.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kshim_test_shard.h"

bool kshim_parse_count(const char *s, unsigned long *out)
{
	unsigned long v = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (ULONG_MAX - 9) / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return true;
}

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* K/N in S, checked; WHAT names S in the error ("--shard 3/2"). */
static bool parse_kn(const char *s, const char *what, struct kshim_shard *out,
		     char *err, size_t errlen)
{
	const char *slash = strchr(s, '/');
	char kbuf[32];
	unsigned long k, n;

	if (!slash || (size_t)(slash - s) >= sizeof(kbuf)) {
		snprintf(err, errlen, "%s: expected K/N, shard K of N shards "
			 "counted from 1 (e.g. 2/16)", what);
		return false;
	}
	memcpy(kbuf, s, slash - s);
	kbuf[slash - s] = '\0';
	if (!kshim_parse_count(kbuf, &k) ||
	    !kshim_parse_count(slash + 1, &n)) {
		snprintf(err, errlen, "%s: expected K/N, two whole numbers "
			 "(e.g. 2/16)", what);
		return false;
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: N is the number of shards and "
			 "must be at least 1", what);
		return false;
	}
	if (k < 1 || k > n) {
		snprintf(err, errlen, "%s: there is no shard %lu of %lu: K "
			 "counts from 1 to N", what, k, n);
		return false;
	}
	out->k = k;
	out->n = n;
	return true;
}

/*
 * One engine's variables: INDEX (and TOTAL) as the engine numbers its
 * jobs, BASE the index of its first job. Returns 0 if the engine's index
 * variable is not set, 1 with *OUT filled, -1 on error.
 */
static int from_index(const char *index_var, const char *total_var,
		      const char *total_hint, unsigned long base,
		      struct kshim_shard *out, char *err, size_t errlen)
{
	const char *iv = env(index_var), *tv = env(total_var);
	unsigned long i, n;

	if (!iv)
		return 0;
	if (!tv) {
		snprintf(err, errlen, "%s=%s is set but %s is not%s", index_var,
			 iv, total_var, total_hint);
		return -1;
	}
	if (!kshim_parse_count(iv, &i) || !kshim_parse_count(tv, &n)) {
		snprintf(err, errlen, "%s=%s %s=%s: expected whole numbers",
			 index_var, iv, total_var, tv);
		return -1;
	}
	snprintf(out->from, sizeof(out->from), "%s=%s %s=%s", index_var, iv,
		 total_var, tv);
	if (n == 0 || i < base || i - base >= n) {
		snprintf(err, errlen, "%s: index %lu is not one of the %lu "
			 "shards (%s counts from %lu)", out->from, i, n,
			 index_var, base);
		return -1;
	}
	out->k = i - base + 1;
	out->n = n;
	return 1;
}

/*
 * Slurm numbers the tasks of an array job as the user wrote the range
 * (--array=0-15 or --array=1-16, or with a step, 0-30:2); the shard is
 * the task's place in that range. A range with gaps (--array=1,4,9)
 * gives no place, and is refused.
 */
static int from_slurm(struct kshim_shard *out, char *err, size_t errlen)
{
	const char *iv = env("SLURM_ARRAY_TASK_ID");
	const char *minv = env("SLURM_ARRAY_TASK_MIN");
	const char *stepv = env("SLURM_ARRAY_TASK_STEP");
	const char *cv;
	unsigned long id, min = 0, step = 1, count;

	if (!iv)
		return 0;
	if ((minv && !kshim_parse_count(minv, &min)) ||
	    (stepv && (!kshim_parse_count(stepv, &step) || !step)) ||
	    !kshim_parse_count(iv, &id) || id < min || (id - min) % step) {
		snprintf(err, errlen, "SLURM_ARRAY_TASK_ID=%s "
			 "SLURM_ARRAY_TASK_MIN=%s SLURM_ARRAY_TASK_STEP=%s: "
			 "not a task of a range min-max[:step]; give the array "
			 "as a range (--array=0-15) or pass --shard K/N", iv,
			 minv ? minv : "(unset)", stepv ? stepv : "(unset)");
		return -1;
	}
	cv = env("SLURM_ARRAY_TASK_COUNT");
	if (!cv || !kshim_parse_count(cv, &count) || !count) {
		snprintf(err, errlen, "SLURM_ARRAY_TASK_ID=%s with "
			 "SLURM_ARRAY_TASK_COUNT=%s: expected the array's "
			 "number of tasks", iv, cv ? cv : "(unset)");
		return -1;
	}
	snprintf(out->from, sizeof(out->from), "SLURM_ARRAY_TASK_ID=%s "
		 "SLURM_ARRAY_TASK_MIN=%lu SLURM_ARRAY_TASK_COUNT=%s", iv, min,
		 cv);
	out->k = (id - min) / step + 1;
	out->n = count;
	if (out->k > out->n) {
		snprintf(err, errlen, "%s: task %lu is past the array's %lu "
			 "tasks", out->from, id, count);
		return -1;
	}
	return 1;
}

/*
 * The shard the CI engines' variables give this job (WHAT: "--shard auto"
 * or "KSHIM_SHARD=auto"). Each engine numbers its jobs its own way.
 * GitLab sets CI_NODE_INDEX (1..N) only in a job with "parallel:", but
 * CI_NODE_TOTAL (1) in every job: the index decides. Kubernetes gives an
 * Indexed Job's pods JOB_COMPLETION_INDEX (0..N-1) and no count: the
 * Job's spec passes .spec.completions as KSHIM_SHARD_TOTAL. Two engines'
 * variables may both be set (a GitLab runner submitting to Slurm) only if
 * they name the same shard.
 */
static bool from_ci(const char *what, struct kshim_shard *out, char *err,
		    size_t errlen)
{
	struct kshim_shard found[3];
	int i, r, nfound = 0;

	for (i = 0; i < 3; i++) {
		memset(&found[nfound], 0, sizeof(found[0]));
		if (i == 0)
			r = from_index("CI_NODE_INDEX", "CI_NODE_TOTAL", "", 1,
				       &found[nfound], err, errlen);
		else if (i == 1)
			r = from_slurm(&found[nfound], err, errlen);
		else
			r = from_index("JOB_COMPLETION_INDEX",
				       "KSHIM_SHARD_TOTAL",
				       " (Kubernetes gives no shard count: set "
				       "KSHIM_SHARD_TOTAL to the Job's "
				       ".spec.completions)", 0,
				       &found[nfound], err, errlen);
		if (r < 0)
			return false;
		if (r == 0)
			continue;
		if (nfound && (found[nfound].k != found[0].k ||
			       found[nfound].n != found[0].n)) {
			snprintf(err, errlen, "%s: the environment names two "
				 "shards, %lu/%lu (%s) and %lu/%lu (%s): pass "
				 "--shard K/N", what, found[0].k, found[0].n,
				 found[0].from, found[nfound].k,
				 found[nfound].n, found[nfound].from);
			return false;
		}
		nfound++;
	}
	if (!nfound) {
		snprintf(err, errlen, "%s: no CI shard variables are set "
			 "(CI_NODE_INDEX, SLURM_ARRAY_TASK_ID, "
			 "JOB_COMPLETION_INDEX); pass --shard K/N", what);
		return false;
	}
	*out = found[0];
	return true;
}

bool kshim_shard_resolve(const char *flag, struct kshim_shard *out,
			 char *err, size_t errlen)
{
	const char *s = flag ? flag : env("KSHIM_SHARD");
	char what[sizeof(out->from)];

	memset(out, 0, sizeof(*out));
	if (!s) {
		out->k = out->n = 1;
		snprintf(out->from, sizeof(out->from), "no shard");
		return true;
	}
	snprintf(what, sizeof(what), flag ? "--shard %s" : "KSHIM_SHARD=%s",
		 s);
	snprintf(out->from, sizeof(out->from), "%s", what);
	/*
	 * The CI variables only on request: GitLab sets CI_NODE_INDEX in
	 * every job of a "parallel: matrix:" too, where the jobs are
	 * different configurations, not shards of one sweep; read
	 * unasked, they would silently cut each configuration's sweep.
	 */
	if (!strcmp(s, "auto"))
		return from_ci(what, out, err, errlen);
	return parse_kn(s, what, out, err, errlen);
}
