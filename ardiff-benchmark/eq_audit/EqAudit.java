// The JVM side of ardiff-benchmark/eq-audit: runs static methods of two releases on the same
// random inputs and prints every input on which they differ. It does not trust pasda-jvm: each
// release is loaded by a class loader of its own over its jar, and the inputs come from a seeded
// generator, not from the engine.
//
//   java EqAudit OLD.jar NEW.jar METHODS.tsv INPUTS SEED
//
// METHODS.tsv: one "class<TAB>name<TAB>descriptor" per line. Output, one line per method:
//   DONE   class name descriptor  runs  differing  unstable
//   DIFF   class name descriptor  inputs  old-output  new-output
//   SKIP   class name descriptor  reason
// An output is the result (or "throws " and the exception's class) followed by the arguments
// after the call (arrays may have changed) and, for an instance method, its receiver as it prints
// itself. An instance method's receivers are built alike in both releases by a constructor of
// generable parameters. A call is repeated when the versions differ: a version whose
// two calls disagree (a clock, a random number, an identity hash) makes the input "unstable",
// not a difference.
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

public class EqAudit {
    static final long CALL_MS = 2000;
    static final String[] WORDS = {"", " ", "a", "abc", "ABC", "a b", "  ab  ", "true", "false", "123", "-4", "0",
        "1.5", "-4.5e3", "0x1F", "#FF", "07", "null", "\t", "aAbB", "xyz,xyz", "a.b.c", "é", "Hello World"};
    static final String CHARS = " aAbBzZ09-_.,;:\tx#";

    public static void main(String[] args) throws Exception {
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        URLClassLoader oldLoader = new URLClassLoader(new URL[] {Paths.get(args[0]).toUri().toURL()}, platform);
        URLClassLoader newLoader = new URLClassLoader(new URL[] {Paths.get(args[1]).toUri().toURL()}, platform);
        int inputs = Integer.parseInt(args[3]);
        long seed = Long.parseLong(args[4]);
        for (String line : Files.readAllLines(Paths.get(args[2]))) {
            if (line.isBlank()) continue;
            String[] f = line.split("\t");
            String key = f[0] + "\t" + f[1] + "\t" + f[2];
            try {
                audit(key, find(oldLoader, f[0], f[1], f[2]), find(newLoader, f[0], f[1], f[2]), inputs,
                      seed ^ key.hashCode());
            } catch (Throwable t) {
                System.out.println("SKIP\t" + key + "\t" + t.getClass().getName() + ": " + t.getMessage());
            }
            System.out.flush();
        }
        System.exit(0);  // (a call that did not end within its time still runs in its thread)
    }

    static Method find(ClassLoader loader, String cls, String name, String descriptor) throws Exception {
        Class<?> c = Class.forName(cls, false, loader);
        for (Method m : c.getDeclaredMethods())
            if (m.getName().equals(name) && descriptorOf(m).equals(descriptor)) {
                m.setAccessible(true);
                return m;
            }
        throw new NoSuchMethodException(descriptor);
    }

    static String descriptorOf(Method m) {
        StringBuilder sb = new StringBuilder("(");
        for (Class<?> p : m.getParameterTypes()) sb.append(typeDescriptor(p));
        return sb.append(')').append(typeDescriptor(m.getReturnType())).toString();
    }

    static String typeDescriptor(Class<?> c) {
        if (c.isArray()) return c.getName().replace('.', '/');
        if (c == int.class) return "I";
        if (c == long.class) return "J";
        if (c == short.class) return "S";
        if (c == byte.class) return "B";
        if (c == char.class) return "C";
        if (c == boolean.class) return "Z";
        if (c == double.class) return "D";
        if (c == float.class) return "F";
        if (c == void.class) return "V";
        return "L" + c.getName().replace('.', '/') + ";";
    }

    static void audit(String key, Method old, Method neu, int inputs, long seed) throws Exception {
        Constructor<?>[] ctors = null;
        if (!Modifier.isStatic(old.getModifiers()) || !Modifier.isStatic(neu.getModifiers())) {
            ctors = receiverConstructors(old.getDeclaringClass(), neu.getDeclaringClass());
            if (ctors == null) {
                System.out.println("SKIP\t" + key + "\tan instance method of a class with no constructor of such parameters in both releases");
                return;
            }
        }
        Class<?>[] ps = old.getParameterTypes();
        for (Class<?> p : ps)
            if (!generable(p)) {
                System.out.println("SKIP\t" + key + "\ta parameter of type " + p.getName());
                return;
            }
        Random r = new Random(seed);
        int runs = 0, unstable = 0, differing = 0;
        for (int i = 0; i < inputs; ++i) {
            Object[] init = ctors == null ? null : values(ctors[0].getParameterTypes(), r);
            Object[] in = values(ps, r);
            String o = call(old, ctors == null ? null : ctors[0], init, in);
            String n = call(neu, ctors == null ? null : ctors[1], init, in);
            if (o == null || n == null) {
                System.out.println("SKIP\t" + key + "\ta call ran longer than " + CALL_MS + " ms on " + show(in));
                return;
            }
            if (o.equals(UNBUILT) || n.equals(UNBUILT)) continue;  // (the constructor refused its arguments)
            ++runs;
            if (o.equals(n)) continue;
            String o2 = call(old, ctors == null ? null : ctors[0], init, in);
            String n2 = call(neu, ctors == null ? null : ctors[1], init, in);
            if (!o.equals(o2) || !n.equals(n2)) {
                ++unstable;
                continue;
            }
            if (differing++ == 0)
                System.out.println("DIFF\t" + key + "\t" + (init == null ? "" : "new(" + show(init) + ") ") + show(in) + "\t" + o + "\t" + n);
        }
        System.out.println("DONE\t" + key + "\t" + runs + "\t" + differing + "\t" + unstable);
    }

    static final String UNBUILT = "(receiver not built)";

    static Object[] values(Class<?>[] ps, Random r) {
        Object[] in = new Object[ps.length];
        for (int k = 0; k < ps.length; ++k) in[k] = value(ps[k], r, 0);
        return in;
    }

    /** A constructor of each release's class with the same generable parameters (the fewest
     *  first), or null: the receivers of an instance method, built alike in both releases. */
    static Constructor<?>[] receiverConstructors(Class<?> old, Class<?> neu) {
        if (Modifier.isAbstract(old.getModifiers()) || Modifier.isAbstract(neu.getModifiers())) return null;
        List<Constructor<?>> cs = new ArrayList<>(Arrays.asList(old.getDeclaredConstructors()));
        cs.sort((a, b) -> Integer.compare(a.getParameterCount(), b.getParameterCount()));
        for (Constructor<?> c : cs) {
            if (!Arrays.stream(c.getParameterTypes()).allMatch(EqAudit::generable)) continue;
            try {
                Constructor<?> d = neu.getDeclaredConstructor(c.getParameterTypes());
                c.setAccessible(true);
                d.setAccessible(true);
                return new Constructor<?>[] {c, d};
            } catch (ReflectiveOperationException | RuntimeException e) {
                // (not in the new release: the next one)
            }
        }
        return null;
    }

    static boolean generable(Class<?> c) {
        if (c.isArray()) return generable(c.getComponentType()) && !c.getComponentType().isArray();
        return c.isPrimitive() || c == String.class || c == CharSequence.class || c == Object.class
            || c == Integer.class || c == Long.class || c == Character.class || c == Boolean.class
            || c == Double.class;
    }

    static int smallInt(Random r) {
        int k = r.nextInt(20);
        if (k == 0) return r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        if (k < 4) return r.nextInt(2001) - 1000;
        return r.nextInt(14) - 3;
    }

    static String string(Random r) {
        if (r.nextInt(10) == 0) return null;
        if (r.nextBoolean()) return WORDS[r.nextInt(WORDS.length)];
        StringBuilder sb = new StringBuilder();
        for (int n = r.nextInt(7); n > 0; --n) sb.append(CHARS.charAt(r.nextInt(CHARS.length())));
        return sb.toString();
    }

    static Object value(Class<?> c, Random r, int depth) {
        if (c == int.class || c == Integer.class) return smallInt(r);
        if (c == long.class || c == Long.class) return r.nextInt(10) == 0 ? (r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : (long) smallInt(r);
        if (c == short.class) return (short) smallInt(r);
        if (c == byte.class) return (byte) smallInt(r);
        if (c == char.class || c == Character.class) return CHARS.charAt(r.nextInt(CHARS.length()));
        if (c == boolean.class || c == Boolean.class) return r.nextBoolean();
        if (c == double.class || c == Double.class) {
            double[] pool = {0.0, -0.0, 1.5, -2.25, 1e10, Double.NaN, Double.POSITIVE_INFINITY, Double.MIN_VALUE};
            return r.nextBoolean() ? pool[r.nextInt(pool.length)] : r.nextGaussian() * 100;
        }
        if (c == float.class) return (float) (double) value(double.class, r, depth);
        if (c == String.class || c == CharSequence.class) return string(r);
        if (c == Object.class) {
            int k = r.nextInt(4);
            return k == 0 ? null : k == 1 ? (Object) smallInt(r) : string(r);
        }
        if (c.isArray()) {
            if (r.nextInt(8) == 0) return null;
            int n = r.nextInt(5);
            Object a = Array.newInstance(c.getComponentType(), n);
            for (int i = 0; i < n; ++i) Array.set(a, i, value(c.getComponentType(), r, depth + 1));
            return a;
        }
        throw new IllegalArgumentException(c.getName());
    }

    static Object copy(Object v) {
        if (v == null || !v.getClass().isArray()) return v;
        int n = Array.getLength(v);
        Object a = Array.newInstance(v.getClass().getComponentType(), n);
        System.arraycopy(v, 0, a, 0, n);
        return a;
    }

    /** The output of one call on copies of `in` (on a receiver `ctor` builds from copies of
     *  `init` when it is not null), UNBUILT when the constructor throws, or null when it ran
     *  longer than CALL_MS. */
    @SuppressWarnings("deprecation")
    static String call(Method m, Constructor<?> ctor, Object[] init, Object[] in) {
        Object[] args = new Object[in.length];
        for (int k = 0; k < in.length; ++k) args[k] = copy(in[k]);
        String[] out = new String[1];
        Thread t = new Thread(() -> {
            Object receiver = null;
            if (ctor != null) {
                try {
                    Object[] ia = new Object[init.length];
                    for (int k = 0; k < init.length; ++k) ia[k] = copy(init[k]);
                    receiver = ctor.newInstance(ia);
                } catch (Throwable e) {
                    out[0] = UNBUILT;
                    return;
                }
            }
            String result;
            try {
                result = show(m.invoke(receiver, args));
            } catch (InvocationTargetException e) {
                result = "throws " + e.getCause().getClass().getName();
            } catch (Throwable e) {
                result = "throws " + e.getClass().getName();
            }
            out[0] = result + " | " + show(args) + (receiver == null ? "" : " | " + show(receiver));
        });
        t.setDaemon(true);
        t.start();
        try {
            t.join(CALL_MS);
        } catch (InterruptedException e) {
            return null;
        }
        if (t.isAlive()) {
            try {
                t.stop();
            } catch (Throwable ignored) {
                // (a JVM without Thread.stop: the thread runs on as a daemon)
            }
            return null;
        }
        return out[0];
    }

    static String show(Object v) {
        if (v == null) return "null";
        if (v instanceof String) return quote((String) v);
        if (v instanceof Object[]) {
            List<String> parts = new ArrayList<>();
            for (Object x : (Object[]) v) parts.add(show(x));
            return "[" + String.join(", ", parts) + "]";
        }
        if (v.getClass().isArray()) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < Array.getLength(v); ++i) parts.add(show(Array.get(v, i)));
            return "[" + String.join(", ", parts) + "]";
        }
        if (v instanceof Character) return "'" + v + "'";
        if (v instanceof Number || v instanceof Boolean) return v + (v instanceof Long ? "L" : v instanceof Float ? "f" : "");
        ClassLoader l = v.getClass().getClassLoader();
        boolean jdk = l == null || l == ClassLoader.getPlatformClassLoader();
        // A release's own object: its class and what it prints (an identity hash in what it
        // prints makes two calls disagree: unstable, not a difference).
        if (jdk) return quote(String.valueOf(v));
        // Object's toString shows the identity hash, which tells two objects apart even when
        // they are alike: such an object shows its class only.
        boolean ownText;
        try {
            ownText = v.getClass().getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            ownText = false;
        }
        return v.getClass().getName() + (ownText ? ":" + quote(String.valueOf(v)) : "");
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') sb.append('\\').append(ch);
            else if (ch < 0x20 || ch > 0x7e) sb.append(String.format("\\u%04x", (int) ch));
            else sb.append(ch);
        }
        return sb.append('"').toString();
    }
}
