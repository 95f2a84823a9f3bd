package install

import "testing"

var testEnv = Env{
	Home:         "/home/ana",
	LocalAppData: `C:\Users\ana\AppData\Local`,
	ExeDir:       `C:\Program Files\DeskBridge`,
	ConfigDir:    "/home/ana/.config",
}

func TestLocations(t *testing.T) {
	const j = "/" + HostName + ".json"
	cases := []struct {
		goos    string
		browser Browser
		scope   Scope
		want    string
		reg     string
	}{
		{"linux", Chrome, User, "/home/ana/.config/google-chrome/NativeMessagingHosts" + j, ""},
		{"linux", Chrome, System, "/etc/opt/chrome/native-messaging-hosts" + j, ""},
		{"linux", Chromium, User, "/home/ana/.config/chromium/NativeMessagingHosts" + j, ""},
		{"linux", Chromium, System, "/etc/chromium/native-messaging-hosts" + j, ""},
		{"linux", Edge, User, "/home/ana/.config/microsoft-edge/NativeMessagingHosts" + j, ""},
		{"linux", Edge, System, "/etc/opt/edge/native-messaging-hosts" + j, ""},
		{"linux", Brave, User, "/home/ana/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts" + j, ""},
		{"linux", Brave, System, "/etc/opt/chrome/native-messaging-hosts" + j, ""},
		{"linux", Vivaldi, User, "/home/ana/.config/vivaldi/NativeMessagingHosts" + j, ""},
		{"linux", Vivaldi, System, "/etc/opt/vivaldi/native-messaging-hosts" + j, ""},
		{"linux", Firefox, User, "/home/ana/.mozilla/native-messaging-hosts" + j, ""},
		{"linux", Firefox, System, "/usr/lib/mozilla/native-messaging-hosts" + j, ""},
		{"darwin", Chrome, User, "/home/ana/Library/Application Support/Google/Chrome/NativeMessagingHosts" + j, ""},
		{"darwin", Chrome, System, "/Library/Google/Chrome/NativeMessagingHosts" + j, ""},
		{"darwin", Chromium, User, "/home/ana/Library/Application Support/Chromium/NativeMessagingHosts" + j, ""},
		{"darwin", Chromium, System, "/Library/Application Support/Chromium/NativeMessagingHosts" + j, ""},
		{"darwin", Edge, User, "/home/ana/Library/Application Support/Microsoft Edge/NativeMessagingHosts" + j, ""},
		{"darwin", Edge, System, "/Library/Microsoft/Edge/NativeMessagingHosts" + j, ""},
		{"darwin", Brave, User, "/home/ana/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts" + j, ""},
		{"darwin", Brave, System, "/Library/Google/Chrome/NativeMessagingHosts" + j, ""},
		{"darwin", Vivaldi, User, "/home/ana/Library/Application Support/Vivaldi/NativeMessagingHosts" + j, ""},
		{"darwin", Vivaldi, System, "/Library/Application Support/Vivaldi/NativeMessagingHosts" + j, ""},
		{"darwin", Firefox, User, "/home/ana/Library/Application Support/Mozilla/NativeMessagingHosts" + j, ""},
		{"darwin", Firefox, System, "/Library/Application Support/Mozilla/NativeMessagingHosts" + j, ""},
		{"windows", Chrome, User, `C:\Users\ana\AppData\Local\DeskBridge\NativeMessagingHosts\com.deskbridge.host.chrome.json`, `HKCU\Software\Google\Chrome\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Chrome, System, `C:\Program Files\DeskBridge\NativeMessagingHosts\com.deskbridge.host.chrome.json`, `HKLM\Software\Google\Chrome\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Chromium, User, `C:\Users\ana\AppData\Local\DeskBridge\NativeMessagingHosts\com.deskbridge.host.chromium.json`, `HKCU\Software\Chromium\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Chromium, System, `C:\Program Files\DeskBridge\NativeMessagingHosts\com.deskbridge.host.chromium.json`, `HKLM\Software\Chromium\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Edge, User, `C:\Users\ana\AppData\Local\DeskBridge\NativeMessagingHosts\com.deskbridge.host.edge.json`, `HKCU\Software\Microsoft\Edge\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Edge, System, `C:\Program Files\DeskBridge\NativeMessagingHosts\com.deskbridge.host.edge.json`, `HKLM\Software\Microsoft\Edge\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Brave, User, `C:\Users\ana\AppData\Local\DeskBridge\NativeMessagingHosts\com.deskbridge.host.brave.json`, `HKCU\Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Brave, System, `C:\Program Files\DeskBridge\NativeMessagingHosts\com.deskbridge.host.brave.json`, `HKLM\Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Vivaldi, User, `C:\Users\ana\AppData\Local\DeskBridge\NativeMessagingHosts\com.deskbridge.host.vivaldi.json`, `HKCU\Software\Vivaldi\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Vivaldi, System, `C:\Program Files\DeskBridge\NativeMessagingHosts\com.deskbridge.host.vivaldi.json`, `HKLM\Software\Vivaldi\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Firefox, User, `C:\Users\ana\AppData\Local\DeskBridge\NativeMessagingHosts\com.deskbridge.host.firefox.json`, `HKCU\Software\Mozilla\NativeMessagingHosts\com.deskbridge.host`},
		{"windows", Firefox, System, `C:\Program Files\DeskBridge\NativeMessagingHosts\com.deskbridge.host.firefox.json`, `HKLM\Software\Mozilla\NativeMessagingHosts\com.deskbridge.host`},
	}
	if len(cases) != 3*2*len(Browsers) {
		t.Fatalf("table has %d cases, want every OS × scope × browser", len(cases))
	}
	for _, c := range cases {
		t.Run(c.goos+"/"+string(c.browser)+"/"+c.scope.String(), func(t *testing.T) {
			loc, err := Locations(c.goos, c.browser, c.scope, testEnv)
			if err != nil {
				t.Fatal(err)
			}
			if loc.Manifest != c.want {
				t.Errorf("manifest = %q, want %q", loc.Manifest, c.want)
			}
			if got := regString(loc); got != c.reg {
				t.Errorf("registry = %q, want %q", got, c.reg)
			}
		})
	}
}

func regString(loc Location) string {
	if loc.Registry == nil {
		return ""
	}
	return loc.Registry.String()
}

func TestLocationsXDGConfigHome(t *testing.T) {
	env := testEnv
	env.XDGConfigHome = "/xdg"
	for _, c := range []struct {
		b    Browser
		want string
	}{
		{Chromium, "/xdg/chromium/NativeMessagingHosts/com.deskbridge.host.json"},
		{Firefox, "/home/ana/.mozilla/native-messaging-hosts/com.deskbridge.host.json"},
	} {
		t.Run(string(c.b), func(t *testing.T) {
			loc, err := Locations("linux", c.b, User, env)
			if err != nil || loc.Manifest != c.want {
				t.Errorf("got %q, %v; want %q", loc.Manifest, err, c.want)
			}
		})
	}
}

func TestLocationsErrors(t *testing.T) {
	cases := []struct {
		name string
		goos string
		b    Browser
		env  Env
	}{
		{"unknown os", "plan9", Chrome, testEnv},
		{"unknown browser", "linux", "opera", testEnv},
		{"relative home", "linux", Chrome, Env{Home: "ana"}},
		{"no LOCALAPPDATA", "windows", Chrome, Env{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if loc, err := Locations(c.goos, c.b, User, c.env); err == nil {
				t.Errorf("got %+v, want an error", loc)
			}
		})
	}
}
