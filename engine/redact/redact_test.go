package redact

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/shlex"
)

// textCase is a text and what a masking function should make of it.
type textCase struct{ in, want string }

// checkStrings reports every case that f does not turn into its want.
func checkStrings(t *testing.T, name string, f func(string) string, cases []textCase) {
	t.Helper()
	for _, c := range cases {
		if got := f(c.in); got != c.want {
			t.Errorf("%s(%q)\n = %q\nwant %q", name, c.in, got, c.want)
		}
	}
}

func TestURL(t *testing.T) {
	checkStrings(t, "URL", URL, []textCase{
		{"https://example.com/a.png", "https://example.com/a.png"},
		{"https://example.com/a.png?", "https://example.com/a.png?"},
		{"https://example.com/a.png#", "https://example.com/a.png#"},
		{"https://s3.example/b/k?X-Amz-Signature=abc&X-Amz-Expires=60", "https://s3.example/b/k?X-Amz-Signature=xxxxx&X-Amz-Expires=xxxxx"},
		{"https://hooks.example/?s3cr3t", "https://hooks.example/?xxxxx"},
		{"https://hooks.example/?dG9rZW4=", "https://hooks.example/?xxxxx"}, // a bare base64 token
		{"https://example.com/?token=", "https://example.com/?xxxxx"},
		{"https://example.com/?a=1&&b=2", "https://example.com/?a=xxxxx&&b=xxxxx"},
		{"https://example.com/?a=1=2", "https://example.com/?a=xxxxx"},
		{"https://app.example/cb#access_token=t0k&state=1", "https://app.example/cb#xxxxx"},
		{"https://app.example/cb?code=c0de#frag", "https://app.example/cb?code=xxxxx#xxxxx"},
		{"https://app.example/#/route?token=t0k", "https://app.example/#xxxxx"}, // "?" after "#" is in the fragment
		{"https://example.com/?next=/a?b=c", "https://example.com/?next=xxxxx"}, // only the first "?" starts the query
		{"http://bad host/x?token=t0k", "http://bad host/x?token=xxxxx"},        // does not parse; redacted all the same
		{"https://x-access-token:ghp_t0k@github.com/o/r.git", "https://xxxxx@github.com/o/r.git"},
		{"https://ann@example.com/", "https://xxxxx@example.com/"},
		{"https:/u:p@host/r.git", "https:/xxxxx@host/r.git"}, // as a path cleaner leaves it
		{"//u:p@host/r", "//xxxxx@host/r"},
		{"https://example.com/a@b", "https://example.com/a@b"}, // "@" in the path
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},   // scp-like: no token in it
		{"C:/Users/ann@corp/a.txt", "C:/Users/ann@corp/a.txt"}, // a drive, not a scheme
		{"https://shop.example/cart;jsessionid=0AB12C;v=2/item", "https://shop.example/cart;jsessionid=xxxxx;v=xxxxx/item"},
		{"https://hooks.slack.com/services/T0001/B0001/XXXXxxxxXXXX", "https://hooks.slack.com/services/xxxxx"},
		{"https://discord.com/api/webhooks/123456/AbC-dEf_123", "https://discord.com/api/webhooks/123456/xxxxx"},
		{"https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage", "https://api.telegram.org/botxxxxx/sendMessage"},
		{"https://example.com/raw/ghp_0123456789abcdefghijABCDEFGHIJ/a.txt", "https://example.com/raw/xxxxx/a.txt"},
		{"https://example.com/task-0123456789abcdefghijklmnop", "https://example.com/task-0123456789abcdefghijklmnop"}, // "sk-" inside a word
		{"https://Hooks.Slack.com:443/services/T0/B0/s3cr3t", "https://Hooks.Slack.com:443/services/xxxxx"},
		{"https://DISCORD.COM/api/v10/webhooks/123/s3cr3t", "https://DISCORD.COM/api/v10/webhooks/123/xxxxx"},
		{"https://ann:s3/cr3t@h/r.git", "https://xxxxx@h/r.git"},                                    // a "/" in the password
		{"https://example.com:8080/a@b", "https://example.com:8080/a@b"},                            // a port, and "@" in the path
		{"http://localhost:3000/a;0AB12C/b;v=1;x", "http://localhost:3000/a;xxxxx/b;v=xxxxx;xxxxx"}, // parameters without a value
		{"", ""},
	})
}

func TestURLsIn(t *testing.T) {
	checkStrings(t, "URLsIn", URLsIn, []textCase{
		{"plain text", "plain text"},
		{`Get "http://127.0.0.1:1/next.png?token=s3cr3t#f": dial tcp: refused`, `Get "http://127.0.0.1:1/next.png?token=xxxxx#xxxxx": dial tcp: refused`},
		{"git clone https://x-access-token:ghp_t0k@github.com/o/r.git dir", "git clone https://xxxxx@github.com/o/r.git dir"},
		{"/ws/https:/127.0.0.1:1/r.git?token=s3cr3t", "/ws/https:/127.0.0.1:1/r.git?token=xxxxx"},
		{"a http://h/?a=1 b https://h/#t c", "a http://h/?a=xxxxx b https://h/#xxxxx c"},
		{"C:/Users/ann/a.txt?", "C:/Users/ann/a.txt?"},
	})
}

// FuzzURL holds URL's promises for any text: the part before the query
// stays unless it has user information, path parameters or a token of a
// well-known shape, every query parameter is a name
// with Mark, Mark or empty, the fragment is Mark or empty, the number of
// parameters stays, and redacting twice changes nothing more.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://example.com/a?b=1&c#d", "http://x/?=&=a#", "?#?#", "https://x/#?a=b", "a&b=c", "https://u:p@h/?a", "//@/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := URL(raw)
		if URL(got) != got {
			t.Fatalf("URL(%q) = %q, which URL changes again", raw, got)
		}
		rawRest, rawFrag, rawHasFrag := strings.Cut(raw, "#")
		rest, frag, hasFrag := strings.Cut(got, "#")
		if hasFrag != rawHasFrag || (frag != "" && frag != Mark) || (frag == "") != (rawFrag == "") {
			t.Fatalf("URL(%q) = %q: fragment %q", raw, got, frag)
		}
		rawBase, rawQuery, _ := strings.Cut(rawRest, "?")
		base, query, _ := strings.Cut(rest, "?")
		if _, hadUser := withoutUser(rawBase); !hadUser && !strings.Contains(rawBase, ";") && Tokens(rawBase) == rawBase && base != rawBase {
			t.Fatalf("URL(%q) = %q: %q before the query, want %q", raw, got, base, rawBase)
		}
		params, rawParams := strings.Split(query, "&"), strings.Split(rawQuery, "&")
		if len(params) != len(rawParams) {
			t.Fatalf("URL(%q) = %q: %d parameters, want %d", raw, got, len(params), len(rawParams))
		}
		for i, p := range params {
			name, value, hasValue := strings.Cut(p, "=")
			rawName, _, _ := strings.Cut(rawParams[i], "=")
			if p != "" && p != Mark && (!hasValue || name != rawName || value != Mark) {
				t.Fatalf("URL(%q) = %q: parameter %q", raw, got, p)
			}
		}
	})
}

// FuzzURLsIn: redacting the URLs in any text twice changes nothing more.
func FuzzURLsIn(f *testing.F) {
	for _, s := range []string{`Get "https://h/?a=1": x`, "a https://u@h/ b", "x:/y?z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := URLsIn(s)
		if URLsIn(got) != got {
			t.Fatalf("URLsIn(%q) = %q, which URLsIn changes again", s, got)
		}
	})
}

func TestArgs(t *testing.T) {
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	for _, c := range []struct{ argv, want []string }{
		{[]string{"git", "log", "--oneline", "-n", "5"}, nil}, // nothing to mask: argv itself
		{[]string{"git", "log", "--author=ann", "--author", "ann"}, nil},
		{[]string{"tool", "--token=s3cr3t", "--api-key", "s3cr3t", "--password", "-s3cr3t"}, []string{"tool", "--token=xxxxx", "--api-key", "xxxxx", "--password", "xxxxx"}},
		{[]string{"tool", "--password-file", "/ws/p.txt", "--password-stdin", "registry.example"}, nil},
		{[]string{"make", "GITHUB_TOKEN=s3cr3t", "DB_PASSWORD=s3cr3t", "V=1"}, []string{"make", "GITHUB_TOKEN=xxxxx", "DB_PASSWORD=xxxxx", "V=1"}},
		{[]string{"curl", "-H", "Authorization: Bearer s3cr3t", "-u", "ann:s3cr3t", "--user=ann:s3cr3t", "https://h/"}, []string{"curl", "-H", "Authorization: xxxxx", "-u", "ann:xxxxx", "--user=ann:xxxxx", "https://h/"}},
		{[]string{"git", "-c", "http.extraHeader=AUTHORIZATION: basic s3cr3t", "fetch"}, []string{"git", "-c", "http.extraHeader=AUTHORIZATION: xxxxx", "fetch"}},
		{[]string{"git", "clone", "oauth2:s3cr3t@gitlab.example:group/r.git"}, []string{"git", "clone", "xxxxx@gitlab.example:group/r.git"}},
		{[]string{"git", "clone", "git@github.com:o/r.git"}, nil},
		{[]string{"echo", "ghp_0123456789abcdefghijABCDEFGHIJ", "AKIAIOSFODNN7EXAMPLE", "xoxb-1234-5678-abcdefgh", jwt}, []string{"echo", "xxxxx", "xxxxx", "xxxxx", "xxxxx"}},
		{[]string{"echo", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----"}, []string{"echo", "xxxxx"}},
		{[]string{"git", "clone", "https://x-access-token:s3cr3t@github.com/o/r.git"}, []string{"git", "clone", "https://xxxxx@github.com/o/r.git"}},
		{[]string{"tool", "--", "--password", "file"}, nil}, // operands after "--"
		{[]string{"--password", "x"}, nil},                  // the program itself is no option
		// Found by review: attached values, nested assignments, wider header names.
		{[]string{"curl", "-HAuthorization: Bearer s3cr3t", "-uann:s3cr3t", "-U", "p:s3cr3t", "https://h/"}, []string{"curl", "-HAuthorization: xxxxx", "-uann:xxxxx", "-U", "p:xxxxx", "https://h/"}},
		{[]string{"docker", "run", "--env=MYSQL_ROOT_PASSWORD=s3cr3t", "-e", "NPM_TOKEN=s3cr3t", "--set=db.password=s3cr3t"}, []string{"docker", "run", "--env=MYSQL_ROOT_PASSWORD=xxxxx", "-e", "NPM_TOKEN=xxxxx", "--set=db.password=xxxxx"}},
		{[]string{"curl", "-H", "X-Vault-Token: s3cr3t", "-H", "X-Amz-Security-Token: s3cr3t"}, []string{"curl", "-H", "X-Vault-Token: xxxxx", "-H", "X-Amz-Security-Token: xxxxx"}},
		{[]string{"git", "clone", "oauth2:s3/cr3t@gitlab.example:g/r.git", "ann:p@s3cr3t@host:r"}, []string{"git", "clone", "xxxxx@gitlab.example:g/r.git", "xxxxx@host:r"}},
		{[]string{"tool", "--password", "--", "x"}, nil}, // "--" is no value
		// Found by review: ordinary arguments that must stay.
		{[]string{"llm", "--max-tokens", "512", "--tokenizer=bert", "--auth-type=legacy", "--secret-name", "prod"}, nil},
		{[]string{"psql", "--no-password", "-h", "db"}, nil},
		{[]string{"curl", "--cookie-jar", "jar.txt"}, nil},
		{[]string{"ssh", "-o", "PasswordAuthentication=no", "host"}, nil},
		// Found by a second review.
		{[]string{"npm", "config", "set", "//registry.npmjs.org/:_authToken=s3cr3t"}, []string{"npm", "config", "set", "//registry.npmjs.org/:_authToken=xxxxx"}},
		{[]string{"curl", "-sSu", "ann:s3cr3t", "-sSuann:s3cr3t", "ann:s3cr3t@h.example/x"}, []string{"curl", "-sSu", "ann:xxxxx", "-sSuann:xxxxx", "xxxxx@h.example/x"}},
		{[]string{"helm", "--set", "a=1,db.password=s3cr3t", "--set=a=1,db.password=s3cr3t"}, []string{"helm", "--set", "a=1,db.password=xxxxx", "--set=a=1,db.password=xxxxx"}},
		{[]string{"psql", "host=db user=ann password=s3cr3t"}, []string{"psql", "host=db user=ann password=xxxxx"}},
		{[]string{"echo", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nMIIEp\n-----END RSA PRIVATE KEY-----"}, []string{"echo", "xxxxx"}},
		{[]string{"llm", "--tokens", "512", "--maxTokens", "5", "--passwordless", "x", "--tokenless", "y"}, nil},
		{[]string{"ffmpeg", "-pass", "1", "-i", "in.mp4"}, nil},
		{[]string{"git", "commit", "-m", "fix cookie: handle expiry\n\nCo-authored-by: Ann <ann@example.com>"}, nil},
		{[]string{"curl", "-HX-Api-Key: s3cr3t", "--header=Cookie: s3cr3t"}, []string{"curl", "-HX-Api-Key: xxxxx", "--header=Cookie: xxxxx"}},
	} {
		got := Args(c.argv)
		want := c.want
		if want == nil {
			want = c.argv
			if &got[0] != &c.argv[0] {
				t.Errorf("Args(%q) made a copy though nothing changed: %q", c.argv, got)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("Args(%q)\n = %q\nwant %q", c.argv, got, want)
		}
	}
}

func TestPath(t *testing.T) {
	checkStrings(t, "Path", Path, []textCase{
		{"/ws/README.md", "/ws/README.md"},
		{"/ws/GITHUB_TOKEN=s3cr3t", "/ws/GITHUB_TOKEN=xxxxx"},
		{"/ws/sub/--token=s3cr3t/x", "/ws/sub/--token=xxxxx"}, // the value may hold separators: masked to the end
		{`C:\ws\GITHUB_TOKEN=s3cr3t\a`, `C:\ws\GITHUB_TOKEN=xxxxx`},
		{"/ws/AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "/ws/AWS_SECRET_ACCESS_KEY=xxxxx"},
		{"/ws/ann:s3/cr3t@gitlab.example:g/r.git", "/ws/xxxxx@gitlab.example:g/r.git"},
		{"/ws/https:/u:p@h/GITHUB_TOKEN=s3/cr3t", "/ws/https:/xxxxx@h/GITHUB_TOKEN=xxxxx"},
		{"/ws/https:/u:p@h/r.git?token=t", "/ws/https:/xxxxx@h/r.git?token=xxxxx"},
		{"/ws/oauth2:s3cr3t@gitlab.example:g/r.git", "/ws/xxxxx@gitlab.example:g/r.git"},
		{"/ws/x=ghp_0123456789abcdefghijABCDEFGHIJ/y", "/ws/x=xxxxx/y"}, // a token, not an assignment to mask
		{"", ""},
	})
}

func TestCommandLine(t *testing.T) {
	checkStrings(t, "CommandLine", CommandLine, []textCase{
		{"git status --short", "git status --short"},
		{`  git   log "--author=ann b"  `, `  git   log "--author=ann b"  `}, // unchanged lines stay as written
		{`tool --password "a b c" --token='x y'`, "tool --password xxxxx --token=xxxxx"},
		{`curl -H "Authorization: Bearer s3cr3t" https://h/?k=v`, "curl -H 'Authorization: xxxxx' 'https://h/?k=xxxxx'"},
		{"echo  https://127.0.0.1/?t=s3cr3t#frag", "echo  https://127.0.0.1/?t=xxxxx#xxxxx"}, // URLs masked in place
		{`echo "it's" GITHUB_TOKEN=s3cr3t`, `echo 'it'\''s' GITHUB_TOKEN=xxxxx`},
		{`curl -H "Authorization: Bearer s3cr3t`, `curl -H "Authorization: xxxxx`}, // does not split: masked as text
		// Found by review: URL masking that would break the quoting, comments, quotes inside names.
		{`curl https://h/api?filter={\"name\":\"x\"} -u ann:s3cr3t`, `curl 'https://h/api?filter=xxxxx' -u ann:xxxxx`},
		{`curl https://h.example/x?a=1\' --password s3cr3t`, "curl 'https://h.example/x?a=xxxxx' --password xxxxx"},
		{`echo https://h/?a=b\ c --token=s`, "echo 'https://h/?a=xxxxx' --token=xxxxx"}, // the word is the URL, to its end
		{"echo ok # --password s3cr3t ghp_0123456789abcdefghijABCDEFGHIJ", "echo ok # --password s3cr3t xxxxx"},
		{"git push # Authorization: Bearer s3cr3t", "git push # Authorization: xxxxx"},
		{`tool --to''ken=s3cr3t GITHUB_TO""KEN=s3cr3t --pa\ssword s3cr3t`, "tool --token=xxxxx GITHUB_TOKEN=xxxxx --password xxxxx"},
		{"curl https://h/?token=''s3cr3t", "curl 'https://h/?token=xxxxx'"},
		// Found by a second review: a header-like word must not hide the rest of the line.
		{"cp Cookie: /home/ann/.ssh/id_rsa /tmp/pub/", "cp Cookie: /home/ann/.ssh/id_rsa /tmp/pub/"},
		{"cp -- -----BEGIN PRIVATE KEY----- /home/ann/.ssh/id_rsa /ws/pub", "cp -- -----BEGIN PRIVATE KEY----- /home/ann/.ssh/id_rsa /ws/pub"},
	})
}

// FuzzArgs: masking is stable (masking again changes nothing more) and
// never changes the number of arguments; CommandLine of any line does not
// panic and is stable too.
func FuzzArgs(f *testing.F) {
	for _, s := range []string{"tool --password x --token=y", "curl -u a:b -H 'Authorization: c'", "make T=1 GITHUB_TOKEN=z", "a:b@c:d ghp_0123456789abcdefghijABCDEFGHIJ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.Fields(line)
		got := Args(argv)
		if len(got) != len(argv) {
			t.Fatalf("Args(%q) = %q: %d arguments, want %d", argv, got, len(got), len(argv))
		}
		if again := Args(got); !slices.Equal(again, got) {
			t.Fatalf("Args(%q) = %q, which Args changes again to %q", argv, got, again)
		}
		masked := CommandLine(line)
		if again := CommandLine(masked); again != masked {
			t.Fatalf("CommandLine(%q) = %q, which CommandLine changes again to %q", line, masked, again)
		}
		// Split as the host splits it, the masked line holds nothing
		// more that Args would mask (the quick check let nothing by).
		if split, err := shlex.Split(masked); err == nil {
			if again := Args(split); !slices.Equal(again, split) {
				t.Fatalf("CommandLine(%q) = %q, whose arguments %q Args masks further to %q", line, masked, split, again)
			}
		}
	})
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := Writer(&b)
	for _, line := range []string{"plain line\n", "deskbridge: Get \"https://h/?t=s3cr3t\": refused\n"} {
		if n, err := w.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", line, n, err)
		}
	}
	if got, want := b.String(), "plain line\ndeskbridge: Get \"https://h/?t=xxxxx\": refused\n"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}
