// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_json: a strict JSON checker and extractor for guest tests (the
 * guest has no python3 standard library).
 *
 *   CMD | tonic_json              exit 0 iff stdin is exactly one valid JSON value
 *   CMD | tonic_json PATH...      print each PATH's value, one per line
 *   CMD | tonic_json -l           JSON lines: every line one valid value
 *
 * PATH: ".key", "[N]", chained (".devices[0].dev"); a trailing "#" prints
 * the number of elements or keys ("#" alone: of the top value); "?keys"
 * prints an object's keys in order, comma-separated.  Strings print
 * unquoted, numbers as written, true/false/null as such, objects and
 * arrays as "object"/"array".  Exit 1: invalid JSON; 3: a PATH not found.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	int type;
	char *s;		/* string, number text, "true"/"false" */
	int n;			/* children */
	char **keys;
	struct jv **kids;
};

static const char *p;
static int bad;

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
}

static struct jv *new(int t)
{
	struct jv *v = calloc(1, sizeof(*v));

	if (!v)
		exit(2);
	v->type = t;
	return v;
}

static void add(struct jv *v, char *key, struct jv *kid)
{
	v->keys = realloc(v->keys, (v->n + 1) * sizeof(char *));
	v->kids = realloc(v->kids, (v->n + 1) * sizeof(struct jv *));
	v->keys[v->n] = key;
	v->kids[v->n++] = kid;
}

static char *str(void)
{
	size_t cap = 16, len = 0;
	char *o = malloc(cap);

	if (*p++ != '"') {
		bad = 1;
		return o;
	}
	for (;;) {
		unsigned char c = *p++;

		if (len + 8 >= cap)
			o = realloc(o, cap *= 2);
		if (c == '"')
			break;
		if (c < 0x20) {
			bad = 1;
			break;
		}
		if (c == '\\') {
			c = *p++;
			if (strchr("\"\\/", c))
				o[len++] = c;
			else if (c == 'n')
				o[len++] = '\n';
			else if (c == 't')
				o[len++] = '\t';
			else if (c == 'r')
				o[len++] = '\r';
			else if (c == 'b')
				o[len++] = '\b';
			else if (c == 'f')
				o[len++] = '\f';
			else if (c == 'u') {
				int i;

				for (i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						bad = 1;
				o[len++] = '?';
				if (!bad)
					p += 4;
			} else {
				bad = 1;
				break;
			}
			continue;
		}
		o[len++] = c;
	}
	o[len] = 0;
	return o;
}

static struct jv *value(int depth)
{
	struct jv *v;

	ws();
	if (depth > 64 || bad) {
		bad = 1;
		return new(J_NULL);
	}
	if (*p == '{') {
		v = new(J_OBJ);
		p++;
		ws();
		if (*p == '}') {
			p++;
			return v;
		}
		for (;;) {
			char *k;

			ws();
			if (*p != '"') {
				bad = 1;
				return v;
			}
			k = str();
			ws();
			if (*p++ != ':') {
				bad = 1;
				return v;
			}
			add(v, k, value(depth + 1));
			ws();
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p++ != '}')
				bad = 1;
			return v;
		}
	}
	if (*p == '[') {
		v = new(J_ARR);
		p++;
		ws();
		if (*p == ']') {
			p++;
			return v;
		}
		for (;;) {
			add(v, NULL, value(depth + 1));
			ws();
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p++ != ']')
				bad = 1;
			return v;
		}
	}
	if (*p == '"') {
		v = new(J_STR);
		v->s = str();
		return v;
	}
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4) || !strncmp(p, "false", 5)) {
		int l = *p == 'f' ? 5 : 4;

		v = new(*p == 'n' ? J_NULL : J_BOOL);
		v->s = strndup(p, l);
		p += l;
		return v;
	}
	if (*p == '-' || isdigit((unsigned char)*p)) {
		const char *s = p;

		if (*p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			bad = 1;
		if (*p == '0' && isdigit((unsigned char)p[1]))
			bad = 1;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '.') {
			p++;
			if (!isdigit((unsigned char)*p))
				bad = 1;
			while (isdigit((unsigned char)*p))
				p++;
		}
		if (*p == 'e' || *p == 'E') {
			p++;
			if (*p == '+' || *p == '-')
				p++;
			if (!isdigit((unsigned char)*p))
				bad = 1;
			while (isdigit((unsigned char)*p))
				p++;
		}
		v = new(J_NUM);
		v->s = strndup(s, p - s);
		return v;
	}
	bad = 1;
	return new(J_NULL);
}

static int query(struct jv *v, const char *q)
{
	while (*q) {
		if (*q == '.') {
			size_t l = strcspn(q + 1, ".[#?");
			int i;

			if (v->type != J_OBJ)
				return 3;
			for (i = v->n - 1; i >= 0; i--)
				if (strlen(v->keys[i]) == l && !strncmp(v->keys[i], q + 1, l))
					break;
			if (i < 0)
				return 3;
			v = v->kids[i];
			q += 1 + l;
		} else if (*q == '[') {
			long i = strtol(q + 1, (char **)&q, 10);

			if (*q++ != ']' || v->type != J_ARR || i < 0 || i >= v->n)
				return 3;
			v = v->kids[i];
		} else if (*q == '#') {
			if (v->type != J_ARR && v->type != J_OBJ)
				return 3;
			printf("%d\n", v->n);
			return 0;
		} else if (!strcmp(q, "?keys")) {
			int i;

			if (v->type != J_OBJ)
				return 3;
			for (i = 0; i < v->n; i++)
				printf("%s%s", i ? "," : "", v->keys[i]);
			printf("\n");
			return 0;
		} else {
			return 3;
		}
	}
	if (v->type == J_ARR || v->type == J_OBJ)
		printf("%s\n", v->type == J_ARR ? "array" : "object");
	else
		printf("%s\n", v->s ? v->s : "null");
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 22];
	size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);
	struct jv *v;
	int i, rc = 0;

	buf[n] = 0;
	if (strlen(buf) != n) {
		fprintf(stderr, "tonic_json: NUL byte in input\n");
		return 1;
	}
	p = buf;
	if (argc > 1 && !strcmp(argv[1], "-l")) {
		int lines = 0;

		while (*p) {
			ws();
			if (!*p)
				break;
			value(0);
			while (*p == ' ' || *p == '\t' || *p == '\r')
				p++;
			if (bad || (*p && *p != '\n')) {
				fprintf(stderr, "tonic_json: invalid JSON line %d\n", lines + 1);
				return 1;
			}
			lines++;
		}
		printf("%d\n", lines);
		return 0;
	}
	v = value(0);
	ws();
	if (bad || *p) {
		fprintf(stderr, "tonic_json: invalid JSON at offset %ld\n", (long)(p - buf));
		return 1;
	}
	for (i = 1; i < argc; i++) {
		int r = query(v, argv[i]);

		if (r) {
			fprintf(stderr, "tonic_json: %s: not found\n", argv[i]);
			rc = r;
		}
	}
	return rc;
}
