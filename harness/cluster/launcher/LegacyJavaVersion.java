package regress.launch;

/**
 * Runs an HBase 0.98 server main class on JDK 9 and later. 0.98's ClassSize
 * reads the java.version property in its static initialiser and refuses
 * any that is not of the 1.x.y form ("Unexpected version format: 11.0.13"),
 * which stops the master before it starts; the JVM sets java.version after
 * the command line's -D options, so only code can change it. This sets it
 * to "1.8.0" (the JDK 8 form, which ClassSize reads only to tell JDK 7
 * apart), keeps the JVM's own value in regress.java.version, and calls the
 * main method of the class named by the first argument with the rest.
 */
public final class LegacyJavaVersion {
    private LegacyJavaVersion() {}

    /** args[0] is the main class; the rest are its arguments. */
    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: regress.launch.LegacyJavaVersion MAIN-CLASS [ARG...]");
            System.exit(2);
        }
        String v = System.getProperty("java.version", "");
        if (!v.matches("\\d\\.\\d\\..*")) {
            System.setProperty("regress.java.version", v);
            System.setProperty("java.version", "1.8.0");
        }
        String[] rest = new String[args.length - 1];
        System.arraycopy(args, 1, rest, 0, rest.length);
        try {
            Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object) rest);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
