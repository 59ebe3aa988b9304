// The soundness fuzzer's judge: runs both versions of generated classes in this JVM on given
// inputs (one fresh class loader per version and input, so static state starts fresh) and prints,
// per input, what each version did: result or exception class, the reachable state as a
// canonical graph (isomorphic graphs print the same), and the console output.
//   java SoundnessDriver JOBS.jsonl OUT.jsonl
// A job line: {"id", "cls", "method", "versions": {"old": DIR, "new": DIR, ...}, "statics": [...],
// "inputs": [{"heap": [...], "this": REF, "args": [...], "set_statics": {...}}]}; see
// tests/soundness/sfuzz/inputs.py for the input format and docs/soundness-fuzzer.md.
import java.io.*;
import java.lang.reflect.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;

public class SoundnessDriver {
    static final long CALL_TIMEOUT_MS = 3000;

    // ------------------------------------------------------------------ minimal JSON
    static final class Json {
        final String s;
        int i;

        Json(String s) { this.s = s; }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.ws();
            if (j.i != j.s.length()) throw new IllegalArgumentException("trailing JSON at " + j.i);
            return v;
        }

        void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }

        Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                ws();
                if (s.charAt(i) == '}') { i++; return m; }
                while (true) {
                    ws();
                    String k = (String) value();
                    ws();
                    i++;  // ':'
                    m.put(k, value());
                    ws();
                    if (s.charAt(i++) == '}') return m;
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                ws();
                if (s.charAt(i) == ']') { i++; return l; }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i++) == ']') return l;
                }
            }
            if (c == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (true) {
                    char d = s.charAt(i++);
                    if (d == '"') return b.toString();
                    if (d == '\\') {
                        char e = s.charAt(i++);
                        switch (e) {
                            case 'n': b.append('\n'); break;
                            case 't': b.append('\t'); break;
                            case 'r': b.append('\r'); break;
                            case 'b': b.append('\b'); break;
                            case 'f': b.append('\f'); break;
                            case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                            default: b.append(e);
                        }
                    } else {
                        b.append(d);
                    }
                }
            }
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int st = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String num = s.substring(st, i);
            if (num.contains(".") || num.contains("e") || num.contains("E")) return Double.parseDouble(num);
            return Long.parseLong(num);
        }

        static String quote(String v) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : v.toCharArray()) {
                if (c == '"' || c == '\\') b.append('\\').append(c);
                else if (c < 32 || c > 126) b.append(String.format("\\u%04x", (int) c));
                else b.append(c);
            }
            return b.append('"').toString();
        }
    }

    // ------------------------------------------------------------------ class loading
    static final Map<String, Map<String, byte[]>> CLASS_BYTES = new HashMap<>();

    static Map<String, byte[]> classesOf(String dir) throws IOException {
        Map<String, byte[]> m = CLASS_BYTES.get(dir);
        if (m != null) return m;
        Map<String, byte[]> fresh = new HashMap<>();
        Path root = Paths.get(dir);
        try (var files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String rel = root.relativize(p).toString();
                if (!rel.endsWith(".class")) continue;
                fresh.put(rel.substring(0, rel.length() - 6).replace(File.separatorChar, '.'), Files.readAllBytes(p));
            }
        }
        CLASS_BYTES.put(dir, fresh);
        return fresh;
    }

    /** A fresh loader per run: the version's classes are defined anew, statics start fresh. */
    static final class VersionLoader extends ClassLoader {
        final Map<String, byte[]> bytes;

        VersionLoader(Map<String, byte[]> bytes) {
            super(ClassLoader.getPlatformClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = bytes.get(name);
            if (b == null) throw new ClassNotFoundException(name);
            return defineClass(name, b, 0, b.length);
        }
    }

    // ------------------------------------------------------------------ one run
    static final class Outcome {
        String kind;     // ret, void, throw, timeout, error
        String detail = "";
        Object result;
    }

    static final ExecutorService[] WORKER = {Executors.newSingleThreadExecutor()};
    static Thread workerThread;

    static Outcome call(Method m, Object recv, Object[] args) {
        Callable<Outcome> task = () -> {
            workerThread = Thread.currentThread();
            Outcome o = new Outcome();
            try {
                o.result = m.invoke(recv, args);
                o.kind = m.getReturnType() == void.class ? "void" : "ret";
            } catch (InvocationTargetException e) {
                o.kind = "throw";
                o.detail = e.getCause().getClass().getName();
            } catch (Throwable e) {
                o.kind = "error";
                o.detail = "invoke: " + e;
            }
            return o;
        };
        Future<Outcome> f = WORKER[0].submit(task);
        try {
            return f.get(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stopWorker();
            Outcome o = new Outcome();
            o.kind = "timeout";
            return o;
        } catch (Exception e) {
            Outcome o = new Outcome();
            o.kind = "error";
            o.detail = "worker: " + e;
            return o;
        }
    }

    @SuppressWarnings({"deprecation", "removal"})
    static void stopWorker() {
        // Generated code always terminates by construction; this is a backstop against a
        // generator bug. Thread.stop still works on JDK 17 and the stuck loader is dropped.
        Thread t = workerThread;
        WORKER[0].shutdownNow();
        if (t != null) t.stop();
        WORKER[0] = Executors.newSingleThreadExecutor();
    }

    static Class<?> classFor(ClassLoader l, String mainCls, String k) throws ClassNotFoundException {
        return l.loadClass(k.equals("C") ? mainCls : mainCls + "$" + k);
    }

    static Object convert(Object v, Class<?> t, Object[] heap) {
        if (v == null) return null;
        if (t == int.class) return ((Number) v).intValue();
        if (t == long.class) return ((Number) v).longValue();
        if (t == boolean.class) return (Boolean) v;
        if (t == char.class) return (char) ((Number) v).intValue();
        if (v instanceof Map) return heap[((Number) ((Map<?, ?>) v).get("r")).intValue()];
        throw new IllegalArgumentException("value " + v + " for " + t);
    }

    @SuppressWarnings({"unchecked", "deprecation", "removal"})
    static Object[] buildHeap(ClassLoader l, String mainCls, List<Object> spec) throws Exception {
        Object[] heap = new Object[spec.size()];
        for (int i = 0; i < spec.size(); i++) {
            Map<String, Object> o = (Map<String, Object>) spec.get(i);
            switch ((String) o.get("k")) {
                case "obj": {
                    Constructor<?> c = classFor(l, mainCls, (String) o.get("cls")).getDeclaredConstructor();
                    c.setAccessible(true);
                    heap[i] = c.newInstance();
                    break;
                }
                case "arr": {
                    List<Object> e = (List<Object>) o.get("e");
                    int[] a = new int[e.size()];
                    for (int j = 0; j < a.length; j++) a[j] = ((Number) e.get(j)).intValue();
                    heap[i] = a;
                    break;
                }
                case "str": heap[i] = new String(((String) o.get("s")).toCharArray()); break;
                case "box": {
                    int v = ((Number) o.get("v")).intValue();
                    heap[i] = Boolean.TRUE.equals(o.get("fresh")) ? new Integer(v) : Integer.valueOf(v);
                    break;
                }
                default: throw new IllegalArgumentException("heap object " + o);
            }
        }
        for (int i = 0; i < spec.size(); i++) {
            Map<String, Object> o = (Map<String, Object>) spec.get(i);
            if (!"obj".equals(o.get("k"))) continue;
            Map<String, Object> fs = (Map<String, Object>) o.getOrDefault("f", Map.of());
            for (Map.Entry<String, Object> e : fs.entrySet()) {
                Field f = heap[i].getClass().getDeclaredField(e.getKey());
                f.setAccessible(true);
                f.set(heap[i], convert(e.getValue(), f.getType(), heap));
            }
        }
        return heap;
    }

    // ------------------------------------------------------------------ canonical state
    static String prim(Object v) {
        if (v instanceof Character) return Integer.toString((Character) v);
        if (v instanceof Double) return "d" + Long.toHexString(Double.doubleToLongBits((Double) v));
        if (v instanceof Float) return "f" + Integer.toHexString(Float.floatToIntBits((Float) v));
        return String.valueOf(v);
    }

    static boolean isPrimitiveType(Class<?> t) { return t.isPrimitive(); }

    /** Walks the graph from the roots in order (fields by name): isomorphic graphs give equal lists. */
    static List<String> canonical(List<String> names, List<Object> roots, List<Boolean> primitive) {
        List<String> out = new ArrayList<>();
        IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
        ArrayDeque<Object[]> work = new ArrayDeque<>();
        for (int i = 0; i < roots.size(); i++) {
            if (primitive.get(i)) out.add(names.get(i) + "=" + prim(roots.get(i)));
            else work.add(new Object[] {names.get(i), roots.get(i)});
        }
        while (!work.isEmpty()) {
            Object[] w = work.poll();
            String path = (String) w[0];
            Object o = w[1];
            if (o == null) { out.add(path + "=null"); continue; }
            Integer id = ids.get(o);
            if (id != null) { out.add(path + "=#" + id); continue; }
            id = ids.size();
            ids.put(o, id);
            Class<?> c = o.getClass();
            if (o instanceof String) {
                out.add(path + "=#" + id + " str " + Json.quote((String) o));
            } else if (o instanceof Integer || o instanceof Boolean || o instanceof Long || o instanceof Character) {
                out.add(path + "=#" + id + " box " + prim(o));
            } else if (o instanceof int[]) {
                int[] a = (int[]) o;
                out.add(path + "=#" + id + " int[" + a.length + "]");
                for (int j = 0; j < a.length; j++) out.add(path + "[" + j + "]=" + a[j]);
            } else if (c.getClassLoader() instanceof VersionLoader) {
                out.add(path + "=#" + id + " " + c.getSimpleName());
                Field[] fs = c.getDeclaredFields();
                Arrays.sort(fs, Comparator.comparing(Field::getName));
                for (Field f : fs) {
                    if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) continue;
                    f.setAccessible(true);
                    Object v;
                    try { v = f.get(o); } catch (IllegalAccessException e) { throw new RuntimeException(e); }
                    if (f.getType().isPrimitive()) out.add(path + "." + f.getName() + "=" + prim(v));
                    else work.add(new Object[] {path + "." + f.getName(), v});
                }
            } else {
                out.add(path + "=#" + id + " other " + c.getName());
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ a job
    @SuppressWarnings("unchecked")
    static String runVersion(Map<String, Object> job, String dir, Map<String, Object> input) {
        String mainCls = (String) job.get("cls");
        StringBuilder b = new StringBuilder("{");
        PrintStream savedOut = System.out, savedErr = System.err;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try {
            VersionLoader l = new VersionLoader(classesOf(dir));
            Class<?> c = Class.forName(mainCls, true, l);
            Object[] heap = buildHeap(l, mainCls, (List<Object>) input.get("heap"));
            Map<String, Object> setStatics = (Map<String, Object>) input.getOrDefault("set_statics", Map.of());
            for (Map.Entry<String, Object> e : setStatics.entrySet()) {
                Field f = c.getDeclaredField(e.getKey());
                f.setAccessible(true);
                f.set(null, convert(e.getValue(), f.getType(), heap));
            }
            Method m = null;
            for (Method cand : c.getDeclaredMethods())
                if (cand.getName().equals(job.get("method"))) m = cand;
            if (m == null) throw new NoSuchMethodException((String) job.get("method"));
            m.setAccessible(true);
            Class<?>[] pts = m.getParameterTypes();
            List<Object> argSpec = (List<Object>) input.get("args");
            Object[] args = new Object[pts.length];
            for (int i = 0; i < pts.length; i++) args[i] = convert(argSpec.get(i), pts[i], heap);
            Object recv = Modifier.isStatic(m.getModifiers()) ? null : convert(input.get("this"), c, heap);
            PrintStream ps = new PrintStream(console, true, StandardCharsets.UTF_8);
            System.setOut(ps);
            System.setErr(ps);
            Outcome o;
            try {
                o = call(m, recv, args);
            } finally {
                System.setOut(savedOut);
                System.setErr(savedErr);
            }
            b.append("\"kind\":").append(Json.quote(o.kind));
            b.append(",\"detail\":").append(Json.quote(o.detail));
            if (o.kind.equals("timeout") || o.kind.equals("error")) return b.append("}").toString();
            // Roots: receiver, reference parameters, a reference result, the compared statics.
            List<String> names = new ArrayList<>();
            List<Object> roots = new ArrayList<>();
            List<Boolean> primitive = new ArrayList<>();
            if (recv != null) { names.add("this"); roots.add(recv); primitive.add(false); }
            List<Object> pnames = (List<Object>) job.get("params");
            for (int i = 0; i < pts.length; i++) {
                if (pts[i].isPrimitive()) continue;
                names.add((String) pnames.get(i));
                roots.add(args[i]);
                primitive.add(false);
            }
            if (o.kind.equals("ret")) {
                Class<?> rt = m.getReturnType();
                if (rt.isPrimitive()) {
                    b.append(",\"ret\":").append(Json.quote(prim(o.result)));
                } else {
                    names.add("result");
                    roots.add(o.result);
                    primitive.add(false);
                }
            }
            for (Object sn : (List<Object>) job.get("statics")) {
                Field f = c.getDeclaredField((String) sn);
                f.setAccessible(true);
                names.add("C." + sn);
                roots.add(f.get(null));
                primitive.add(f.getType().isPrimitive());
            }
            b.append(",\"state\":[");
            List<String> st = canonical(names, roots, primitive);
            for (int i = 0; i < st.size(); i++) b.append(i == 0 ? "" : ",").append(Json.quote(st.get(i)));
            b.append("],\"out\":").append(Json.quote(console.toString(StandardCharsets.UTF_8)));
        } catch (Throwable e) {
            System.setOut(savedOut);
            System.setErr(savedErr);
            Throwable t = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
            return "{\"kind\":\"error\",\"detail\":" + Json.quote("setup: " + t) + "}";
        }
        return b.append("}").toString();
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] argv) throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(argv[0]), StandardCharsets.UTF_8);
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Paths.get(argv[1]), StandardCharsets.UTF_8))) {
            for (String line : lines) {
                if (line.isBlank()) continue;
                Map<String, Object> job = (Map<String, Object>) Json.parse(line);
                Map<String, Object> versions = (Map<String, Object>) job.get("versions");
                List<Object> inputs = (List<Object>) job.get("inputs");
                for (int i = 0; i < inputs.size(); i++) {
                    Map<String, Object> in = (Map<String, Object>) inputs.get(i);
                    StringBuilder b = new StringBuilder("{\"id\":").append(Json.quote((String) job.get("id")));
                    b.append(",\"i\":").append(i);
                    for (Map.Entry<String, Object> v : versions.entrySet())
                        b.append(",").append(Json.quote(v.getKey())).append(":").append(runVersion(job, (String) v.getValue(), in));
                    out.println(b.append("}"));
                }
                out.flush();
            }
        }
        WORKER[0].shutdownNow();
        System.exit(0);
    }
}
