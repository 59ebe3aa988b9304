// Compiles many independent groups of Java sources in one JVM (a javac start costs ~0.5 s).
//   java BatchCompile.java [--tree SRC_ROOT OUT_ROOT] [--unit SRC_DIR OUT_DIR]...
// --tree: every folder under SRC_ROOT that directly holds .java files is compiled on its own
//         into OUT_ROOT/<relative folder>; --unit: all .java files under SRC_DIR into OUT_DIR.
// Every unit is compiled with -g. Exits non-zero if any unit fails.
import javax.tools.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class BatchCompile {
    public static void main(String[] args) throws IOException {
        List<Path[]> units = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--tree")) {
                Path src = Paths.get(args[++i]);
                Path out = Paths.get(args[++i]);
                if (!Files.isDirectory(src)) continue;
                try (Stream<Path> s = Files.walk(src)) {
                    for (Path dir : s.filter(Files::isDirectory).sorted().collect(Collectors.toList())) {
                        try (Stream<Path> f = Files.list(dir)) {
                            if (f.anyMatch(p -> p.toString().endsWith(".java"))) {
                                units.add(new Path[] {dir, out.resolve(src.relativize(dir)), null});
                            }
                        }
                    }
                }
            } else if (args[i].equals("--unit")) {
                units.add(new Path[] {Paths.get(args[++i]), Paths.get(args[++i]), Paths.get("recursive")});
            } else {
                System.err.println("BatchCompile: unknown argument " + args[i]);
                System.exit(2);
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int failures = 0;
        for (Path[] u : units) {
            List<String> files;
            try (Stream<Path> s = (u[2] != null) ? Files.walk(u[0]) : Files.list(u[0])) {
                files = s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted()
                         .collect(Collectors.toList());
            }
            Files.createDirectories(u[1]);
            List<String> opts = new ArrayList<>(List.of("-g", "-nowarn", "-encoding", "UTF-8", "-d", u[1].toString()));
            opts.addAll(files);
            int rc = javac.run(null, null, null, opts.toArray(new String[0]));
            if (rc != 0) {
                System.err.println("BatchCompile: compiling " + u[0] + " failed");
                failures++;
            }
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
