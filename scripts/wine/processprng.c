/*
 * bcryptprimitives.dll for Wine 8.
 *
 * Why this exists: since Go 1.24 the Windows runtime takes its random bytes
 * from ProcessPrng in bcryptprimitives.dll, which Debian's Wine 8 does not
 * ship, so every Go program stops at start under it. This DLL exports
 * ProcessPrng on top of RtlGenRandom (advapi32's SystemFunction036), which
 * Wine has. It is built and copied into the Wine prefix only by
 * scripts/wine/setup.sh, to run DeskBridge's Windows tests under Wine; it is
 * never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
	(void)inst;
	(void)reason;
	(void)reserved;
	return TRUE;
}
