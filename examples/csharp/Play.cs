// Unity's route to cardcore's rules: the native library (libcardcore.so, cardcore.dll,
// libcardcore.dylib) through [DllImport("cardcore")], as a Unity or Godot C# script calls it.
// Plays random games of every registered game and prints one line per game.
//
//   make -C src/cardcore/core                       # build/libcardcore/libcardcore.so
//   mcs -out:play.exe examples/csharp/Play.cs
//   LD_LIBRARY_PATH=build/libcardcore mono play.exe [games per game]
using System;
using System.Runtime.InteropServices;
using System.Text;

static class Native
{
    const string Lib = "cardcore";
    [DllImport(Lib)] public static extern int cc_abi_version();
    [DllImport(Lib)] public static extern int cc_game_count();
    [DllImport(Lib)] public static extern IntPtr cc_game_name(int i);
    [DllImport(Lib)] public static extern int cc_game_new(string game, int players, string optionsJson,
        ulong seed, out IntPtr game_, StringBuilder err, UIntPtr errLen);
    [DllImport(Lib)] public static extern void cc_game_free(IntPtr g);
    [DllImport(Lib)] public static extern int cc_is_over(IntPtr g);
    [DllImport(Lib)] public static extern int cc_current_player(IntPtr g);
    [DllImport(Lib)] public static extern int cc_num_players(IntPtr g);
    [DllImport(Lib)] public static extern int cc_legal_actions(IntPtr g, int[] ids, int cap);
    [DllImport(Lib)] public static extern int cc_apply(IntPtr g, int id, StringBuilder err, UIntPtr errLen);
    [DllImport(Lib)] public static extern int cc_returns(IntPtr g, double[] outp, int cap);
    [DllImport(Lib)] public static extern int cc_action_label(IntPtr g, int id, StringBuilder buf, UIntPtr len);
}

/// One match: a handle the library allocated, freed by Dispose.
sealed class Game : IDisposable
{
    IntPtr handle;
    readonly int[] ids = new int[4096];

    public Game(string name, int players, string options, ulong seed)
    {
        var err = new StringBuilder(512);
        int status = Native.cc_game_new(name, players, options, seed, out handle, err, (UIntPtr)512);
        if (status != 0) throw new ArgumentException($"{name}: {err} (code {status})");
    }

    public bool IsOver => Native.cc_is_over(handle) == 1;
    public int NumPlayers => Native.cc_num_players(handle);

    public int[] LegalActions()
    {
        int n = Native.cc_legal_actions(handle, ids, ids.Length);
        var result = new int[n];
        Array.Copy(ids, result, n);
        return result;
    }

    public void Apply(int id)
    {
        var err = new StringBuilder(512);
        int status = Native.cc_apply(handle, id, err, (UIntPtr)512);
        if (status != 0) throw new InvalidOperationException(err.ToString());
    }

    public string Label(int id)
    {
        var buf = new StringBuilder(256);
        Native.cc_action_label(handle, id, buf, (UIntPtr)256);
        return buf.ToString();
    }

    public double[] Returns()
    {
        var r = new double[NumPlayers];
        Native.cc_returns(handle, r, r.Length);
        return r;
    }

    public void Dispose()
    {
        Native.cc_game_free(handle);
        handle = IntPtr.Zero;
    }
}

static class Play
{
    static int Main(string[] args)
    {
        int games = args.Length > 0 ? int.Parse(args[0]) : 20;
        if (Native.cc_abi_version() != 1) { Console.Error.WriteLine("unexpected ABI"); return 1; }
        var rng = new Random(7);
        for (int i = 0; i < Native.cc_game_count(); i++)
        {
            string name = Marshal.PtrToStringAnsi(Native.cc_game_name(i));
            long actions = 0;
            string first = null;
            for (int k = 0; k < games; k++)
            {
                using (var game = new Game(name, 0, "{}", (ulong)k))
                {
                    while (!game.IsOver)
                    {
                        int[] legal = game.LegalActions();
                        int id = legal[rng.Next(legal.Length)];
                        if (first == null) first = game.Label(id);
                        game.Apply(id);
                        actions++;
                    }
                    if (game.Returns().Length != game.NumPlayers) return 1;
                }
            }
            // An illegal id is refused with the reason, and nothing changes.
            using (var game = new Game(name, 0, null, 1))
            {
                try { game.Apply(1 << 20); return 1; }
                catch (InvalidOperationException) { }
            }
            Console.WriteLine($"{name}: {games} games, {actions} actions, first move \"{first}\"");
        }
        return 0;
    }
}
