package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/google/shlex"
)

// This file masks the secrets a command line commonly carries besides
// URLs: an option or an assignment named like a secret (--token=…,
// --password …, GITHUB_TOKEN=…), an authorization header (curl -H
// "Authorization: Bearer …", git's http.extraHeader), curl's --user
// user:password, an scp-style address with a password
// (user:password@host:path), and tokens in the well-known shapes of
// GitHub, GitLab, Slack, AWS, Google, Stripe, OpenAI, npm, JWTs, webhook
// URLs and PEM private keys, wherever they appear. These are heuristics:
// they mask what is named or shaped like a secret, not every secret.

// Arg returns one command argument with the secrets in it masked: every
// URL (argURLs), the value of an option or assignment named like a secret
// ("--token=xxxxx", "GITHUB_TOKEN=xxxxx"), the password of --user=ann:…,
// the value of an authorization header, the password of an scp-style
// address, and every token of a well-known shape.
func Arg(s string) string {
	s = argURLs(s)
	s = maskAssignment(s)
	if user, ok := attachedUser(s); ok {
		s = user + ":" + Mark
	}
	if strings.Contains(s, ":") {
		if mayHoldHeader(s) {
			s = header().ReplaceAllString(s, "${1}"+Mark)
		}
		if strings.Contains(s, "@") {
			s = scpPassword().ReplaceAllString(s, Mark+"@${1}")
		}
	}
	return Tokens(s)
}

// argURLs applies URL to the URLs in one argument: an argument that
// begins with one is that URL to its end, white space and quotes
// included (they are part of it once the line is split); a URL later in
// an argument runs to the next white space.
func argURLs(s string) string {
	if !strings.Contains(s, ":/") {
		return s
	}
	if schemeSlashes().MatchString(s) || strings.HasPrefix(s, "//") {
		return URL(s)
	}
	return urlInArg().ReplaceAllStringFunc(s, URL)
}

var urlInArg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]+:/+\S*`) })

// maskAssignment masks the value of an assignment named like a secret
// ("--token=xxxxx", "GITHUB_TOKEN=xxxxx", npm's
// "//registry.example/:_authToken=xxxxx", judged by the part of the name
// after its last "/" or ":"), the password of --user=ann:… and
// --proxy-user=…, and an assignment inside the value of another
// ("--env=MYSQL_ROOT_PASSWORD=xxxxx", "--set=db.password=xxxxx"). When
// the chain of assignments holds none, each item of a list the argument
// is (split at "," and white space: "--set=a=1,db.password=xxxxx",
// "host=db password=xxxxx") is masked so. It takes time linear in len(s).
func maskAssignment(s string) string {
	if m := maskChain(s); m != s {
		return m
	}
	if !strings.ContainsAny(s, ", \t\n") {
		return s
	}
	var b strings.Builder
	changed, start := false, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && !strings.ContainsRune(", \t\n", rune(s[i])) {
			continue
		}
		item := s[start:i]
		m := maskChain(item)
		changed = changed || m != item
		b.WriteString(m)
		if i < len(s) {
			b.WriteByte(s[i])
		}
		start = i + 1
	}
	if !changed {
		return s
	}
	return b.String()
}

// maskChain masks the first secret in a chain of assignments, "a=b=c=…",
// walking it once: everything after the "=" of the first name that says
// its value is a secret, or the password after --user= or --proxy-user=.
func maskChain(s string) string {
	off := 0
	for {
		name, value, ok := assignmentIn(s[off:])
		if !ok {
			return s
		}
		end := off + len(name) + 1 // just after the "="
		switch {
		case secretName(strings.TrimLeft(name, "-")):
			return s[:end] + Mark
		case name == "--user" || name == "--proxy-user":
			if user, _, ok := strings.Cut(value, ":"); ok {
				return s[:end] + user + ":" + Mark
			}
		}
		off = end
	}
}

// attachedUser reports a curl-style -uUSER:PASSWORD or -UUSER:PASSWORD,
// alone or at the end of a cluster of short options ("-sSuann:…"), and
// returns it up to the colon.
func attachedUser(s string) (string, bool) {
	k := userOptionEnd(s)
	if k < 0 {
		return "", false
	}
	colon := strings.IndexByte(s, ':')
	if colon <= k {
		return "", false
	}
	return s[:colon], true
}

// curlFlags are curl's short options that take no value, which may come
// before -u in a cluster ("-sSu"); an option that takes one (-H, -A …)
// takes the rest of the word.
const curlFlags = "sSvkLfiIgGjJlnNqR"

// userOptionEnd is the index just after the u or U of a cluster of short
// options that begins s ("-u", "-sSu", "-U…"), or -1.
func userOptionEnd(s string) int {
	if len(s) < 2 || s[0] != '-' || s[1] == '-' {
		return -1
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'u' || c == 'U':
			return i + 1
		case strings.IndexByte(curlFlags, c) >= 0:
		default:
			return -1
		}
	}
	return -1
}

// assignmentIn splits an argument "NAME=VALUE" or "--NAME=VALUE" (one
// or two dashes; a name of letters, digits, "_", "." and "-" that does
// not begin with a digit, "." or "-"; a value of one byte at least) into
// the name with its dashes and the value. A name beginning with "//"
// (npm's "//registry.example/:_authToken") is judged by its part after
// the last "/" or ":".
func assignmentIn(s string) (name, value string, ok bool) {
	eq := strings.IndexByte(s, '=')
	if eq < 0 || eq == len(s)-1 {
		return "", "", false
	}
	name = s[:eq]
	bare := strings.TrimPrefix(name, "-")
	bare = strings.TrimPrefix(bare, "-")
	if k := strings.LastIndexAny(bare, "/:"); k >= 0 && strings.HasPrefix(bare, "//") {
		bare = bare[k+1:] // npm's //registry.example/:_authToken
	}
	if bare == "" || bare[0] == '.' || bare[0] == '-' || '0' <= bare[0] && bare[0] <= '9' {
		return "", "", false
	}
	for i := range len(bare) {
		c := bare[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return "", "", false
		}
	}
	return name, s[eq+1:], true
}

// mayHoldHeader reports whether s, in any case, holds a part that every
// header name header matches has ("auth", "api-key", "-token",
// "cookie"), so that s without one is not searched.
func mayHoldHeader(s string) bool {
	lower := strings.ToLower(s)
	for _, part := range []string{"auth", "api-key", "-token", "cookie"} {
		if strings.Contains(lower, part) {
			return true
		}
	}
	return false
}

// Path returns a path made from an argument (a path argument's
// canonical form, the argument joined to a folder) with Arg applied to
// the whole of it, for a URL that became a path, and then to each of its
// elements between "/" or "\\" ("/ws/GITHUB_TOKEN=xxxxx"; an assignment
// masked so is masked to the end of the path, as its value may hold a
// separator).
func Path(p string) string {
	p = Arg(p)
	var b strings.Builder
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' && p[i] != '\\' {
			continue
		}
		elem := p[start:i]
		m := Arg(elem)
		if m != elem {
			// An assignment's value may hold separators itself
			// ("KEY=wJalr/K7MDENG"): mask to the end of the path.
			if r := maskAssignment(p[start:]); r != p[start:] {
				if b.Len() == 0 {
					b.WriteString(p[:start])
				}
				return b.String() + Tokens(r)
			}
		}
		if m != elem || b.Len() > 0 {
			if b.Len() == 0 {
				b.WriteString(p[:start])
			}
			b.WriteString(m)
			if i < len(p) {
				b.WriteByte(p[i])
			}
		}
		start = i + 1
	}
	if b.Len() == 0 {
		return p
	}
	return b.String()
}

// Args returns argv with Arg applied to every element and, as a pair,
// the element after an option named like a secret masked whole
// ("--password", "xxxxx"; not after one naming a file, a variable, a
// helper or stdin, such as --password-file or --password-stdin), and the
// password after curl's -u, --user, -U or --proxy-user ("ann:xxxxx"; -u
// also at the end of a cluster, "-sSu").
// Pairs end at "--", and "--" is never taken for a value.
// It returns argv itself when nothing changed, a new slice otherwise.
func Args(argv []string) []string {
	if out := ArgsFunc(len(argv), func(i int) string { return argv[i] }); out != nil {
		return out
	}
	return argv
}

// ArgsFunc is Args of the n arguments at returns; it returns nil, having
// allocated nothing, when nothing is masked.
func ArgsFunc(n int, at func(i int) string) []string {
	var out []string
	set := func(i int, v string) {
		if out == nil {
			if v == at(i) {
				return
			}
			out = make([]string, n)
			for j := range out {
				out[j] = at(j)
			}
		}
		out[i] = v
	}
	for i := range n {
		set(i, Arg(at(i)))
	}
	for i := 1; i+1 < n && at(i) != "--"; i++ {
		if at(i+1) == "--" {
			continue
		}
		switch a := at(i); {
		case a == "--user" || a == "--proxy-user" || userOptionEnd(a) == len(a):
			if user, _, ok := strings.Cut(at(i+1), ":"); ok {
				set(i+1, user+":"+Mark)
			}
		case secretOption(a):
			set(i+1, Mark)
		}
	}
	return out
}

// CommandLine returns a command line, as run_command's command argument
// holds it, with what Args masks masked. The line is split as the host
// splits it (github.com/google/shlex) and its words masked with Args.
// When masking its URLs in place (URLsIn) gives a line that splits into
// exactly the masked words, that line is returned, so that a command
// whose only secret is in a URL keeps its form; otherwise the masked
// words joined again, single-quoted where needed
// ("curl -H 'Authorization: xxxxx' …"). A comment ("# …", which the
// split drops and no program sees) is masked as text (Tokens, header
// values) where that changes no word, and dropped otherwise, with the
// line joined from the words. A line that does not split (an unclosed quote) is masked as
// text.
func CommandLine(s string) string {
	if strings.TrimSpace(s) == "" {
		return s
	}
	argv, err := shlex.Split(s)
	if err != nil {
		return maskText(URLsIn(s))
	}
	masked := Args(argv)
	inPlace := URLsIn(s)
	if again, err := shlex.Split(inPlace); err == nil && slices.Equal(again, masked) {
		// The words are as masked; what maskText changes besides must be
		// in a comment, or the line is joined again from the words.
		t := maskText(inPlace)
		if t == inPlace {
			return t
		}
		if again, err := shlex.Split(t); err == nil && slices.Equal(again, masked) {
			return t
		}
	}
	var b strings.Builder
	for i, a := range masked {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quote(a))
	}
	return b.String()
}

// maskText masks, in any text, the values of credential headers and the
// tokens of well-known shapes.
func maskText(s string) string {
	if mayHoldHeader(s) {
		s = lineHeader().ReplaceAllString(s, "${1}"+Mark)
	}
	return Tokens(s)
}

// quote returns a as one word of a command line: unchanged when it holds
// only characters no splitter treats specially, single-quoted otherwise.
func quote(a string) string {
	if a != "" && strings.Trim(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-") == "" {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// Tokens returns s with every token of a well-known shape replaced by
// Mark (for a webhook URL, the part of its path that is the secret).
func Tokens(s string) string {
	for _, t := range tokenShapes() {
		if t.possible(s) {
			s = t.re.ReplaceAllString(s, t.repl)
		}
	}
	return s
}

// secretOption reports whether a is an option (one or two dashes and a
// name of letters, digits, "_", "." and "-"; no value attached) whose
// name says its value is a secret.
func secretOption(a string) bool {
	if !strings.HasPrefix(a, "-") {
		return false
	}
	name := strings.TrimLeft(a, "-")
	if name == "" || strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != "" {
		return false
	}
	if !strings.HasPrefix(a, "--") && (name == "pass" || name == "pw" || name == "pat") {
		return false // single-dash short words mean other things (ffmpeg's -pass 1)
	}
	return secretName(name)
}

// secretName reports whether an option or variable name says its value
// is a secret: it contains token, password, passwd, passphrase, secret,
// credential, bearer, cookie, api-key or access-key, private-key (with or
// without a separator), or is pass, pw, pat or auth, or has auth as one of
// its parts ("--auth-header", not "--author"). A name that says its value
// is something else is not: one that ends naming a file, a folder, a
// variable, a helper, stdin, a URL, a kind, a name, an id, a count, a
// size, a mode or a number of tokens (--password-file, --token-url,
// --auth-type, --secret-name, --tokens), one that begins with no-, max-,
// min- or num- or their camel case (--no-password, --max-tokens,
// --maxTokens), one ending in less (--passwordless), a tokenizer, and an
// authentication setting (PasswordAuthentication=no).
func secretName(name string) bool {
	return secretWords().MatchString(name) && !notSecret().MatchString(name)
}

var notSecret = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i:file|path|dir|folder|env|stdin|cmd|command|helper|url|uri|type|kind|name|id|count|size|length|limit|jar|izer|authentication|method|mode|tokens|less)$|^(?i:no|max|min|num)(?:[-_.]|[A-Z])`)
})

var secretWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)token|passw(?:or)?d|passphrase|secret|credential|bearer|cookie|(?:api|access|private|secret)[-_.]?key|^(?:pass|pw|pat|auth)$|(?:^|[-_.])auth(?:[-_.]|$)|authorization`)
})

// headerNames are the names of headers that carry a credential: the
// authorizations, a cookie, and every name ending in -token or api-key
// or holding -auth ("X-Vault-Token", "X-Amz-Security-Token").
const headerNames = `(?:(?:proxy-)?authorization|[a-z0-9-]*api-key|[a-z0-9-]*-token|[a-z0-9-]*-auth[a-z0-9-]*|set-cookie|cookie)`

// header is a credential header inside an argument, up to its end: group
// 1 is the name, the colon and the space after it. The header begins the
// argument, or follows curl's -H ("-HAuthorization:…") or an "="
// ("--header=…", git's "http.extraHeader=Authorization:…"), so that a
// message mentioning a cookie is left alone.
var header = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^((?:-H\s*|[A-Za-z0-9_.-]*=)?` + headerNames + `\s*:\s*)\S.*`)
})

// lineHeader is header inside a command line: the value ends at a quote
// (the end of the quoted argument) or the end of the line.
var lineHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(` + headerNames + `\s*:\s*)[^\s"'][^"'\n]*`)
})

// scpPassword is the "user:password@" of an scp-style address
// ("ann:s3cr3t@host:path"), or of curl's URL without a scheme
// ("ann:s3cr3t@host/path"), group 1 the "host:" or "host/" after it. The password
// may hold "/" and "@" (it runs to the last "@" before "host:"), but does
// not begin with "/", so that a URL ("https://…@host:443/") is not taken
// for one.
var scpPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b[A-Za-z0-9._~-]+:[^\s/'"][^\s'"]*@([^\s@/:'"]+[:/])`)
})

// tokenShape is a token format and what replaces a match; a text
// without hint in it cannot hold one, so the expression is not run.
type tokenShape struct {
	hints    []string // one of them is in every match
	foldCase bool     // hints are lower case, matches in any case
	re       *regexp.Regexp
	repl     string
}

// possible reports whether s holds one of t's hints (in any case for a
// shape that ignores case).
func (t *tokenShape) possible(s string) bool {
	if t.foldCase {
		s = strings.ToLower(s)
	}
	for _, h := range t.hints {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}

// tokenShapes are the well-known token formats Tokens masks. Each begins
// at a word boundary so that a word merely containing a prefix ("task-…")
// is not taken for one.
var tokenShapes = sync.OnceValue(func() []tokenShape {
	shape := func(hints, expr, repl string) tokenShape {
		return tokenShape{hints: strings.Split(hints, " "), foldCase: strings.HasPrefix(expr, "(?i)"), re: regexp.MustCompile(expr), repl: repl}
	}
	whole := func(hints, expr string) tokenShape { return shape(hints, expr, Mark) }
	return []tokenShape{
		whole("ghp_ gho_ ghu_ ghs_ ghr_ github_pat_", `\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`), // GitHub
		whole("glpat-", `\bglpat-[A-Za-z0-9_-]{20,}`),                                                                  // GitLab
		whole("xox", `\bxox[abeoprs]-[A-Za-z0-9-]{10,}`),                                                               // Slack
		whole("AKIA ASIA", `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),                                                            // AWS access key id
		whole("AIza", `\bAIza[0-9A-Za-z_-]{35}`),                                                                       // Google API key
		whole("k_live_ k_test_", `\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}`),                                             // Stripe
		whole("sk-", `\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}`),                                                         // OpenAI, Anthropic
		whole("npm_", `\bnpm_[A-Za-z0-9]{36}`),                                                                         // npm
		whole("eyJ", `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`),                                   // JWT
		whole("PRIVATE", `-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z ]*PRIVATE KEY-----|$)`),
		shape("hooks.slack.com", `(?i)(hooks\.slack\.com(?::[0-9]+)?/(?:services|workflows|triggers)/)[A-Za-z0-9/_-]+`, "${1}"+Mark),
		shape("/webhooks/", `(?i)(discord(?:app)?\.com(?::[0-9]+)?/api/(?:v[0-9]+/)?webhooks/[0-9]+/)[A-Za-z0-9_-]+`, "${1}"+Mark),
		shape("/bot", `(?i)(/bot)[0-9]{6,12}:[A-Za-z0-9_-]{30,}`, "${1}"+Mark), // Telegram bot API
	}
})
