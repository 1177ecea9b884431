import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import jdk.management.jfr.FlightRecorderMXBean;

/**
 * regress's JFR recorder for a JVM elsewhere: through the JVM's JMX remote
 * connector (its FlightRecorder MBean), it records with regress's settings
 * from one instant to another on this machine's clock, then streams the
 * recording into a file here.
 *
 * Usage: RegressJfrOverJmx host:port out.jfr settings.jfc settings-jdk16.jfc
 * It connects and prepares the recording, prints "ready", then reads one
 * line "startEpochMs stopEpochMs" from stdin (EOF: it closes the recording
 * unstarted and exits). So the JVM and the connection start well before the
 * window, and only the MBean's calls fall near it.
 * REGRESS_JMX_USER and REGRESS_JMX_PASSWORD, when set, are the connector's credentials.
 * Prints "started MS" (when the recording started, epoch ms) on stdout; errors on stderr, exit 1.
 */
public final class RegressJfrOverJmx {
    public static void main(String[] a) {
        if (a.length != 4) {
            System.err.println("usage: RegressJfrOverJmx host:port out.jfr settings.jfc settings-jdk16.jfc");
            System.exit(2);
        }
        try {
            record(a[0], a[1], a[2], a[3]);
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            System.err.println("JFR over JMX at " + a[0] + ": " + e + (root != e ? " (" + root + ")" : ""));
            System.exit(1);
        }
    }

    private static void record(String addr, String out, String jfc, String jfc16) throws Exception {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + addr + "/jmxrmi");
        Map<String, Object> env = new HashMap<>();
        String user = System.getenv("REGRESS_JMX_USER");
        if (user != null) {
            String pass = System.getenv("REGRESS_JMX_PASSWORD");
            env.put(JMXConnector.CREDENTIALS, new String[] {user, pass == null ? "" : pass});
        }
        try (JMXConnector c = JMXConnectorFactory.connect(url, env)) {
            MBeanServerConnection conn = c.getMBeanServerConnection();
            RuntimeMXBean rt = ManagementFactory.newPlatformMXBeanProxy(conn, ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class);
            String spec = rt.getSpecVersion();
            ObjectName name = new ObjectName("jdk.management.jfr:type=FlightRecorder");
            if (!conn.isRegistered(name)) {
                throw new IllegalStateException("the JVM (Java " + spec + ") has no FlightRecorder MBean: JFR over JMX needs JDK 11 or later (or 8u272+)");
            }
            FlightRecorderMXBean fr = JMX.newMXBeanProxy(conn, name, FlightRecorderMXBean.class);
            String settings = new String(Files.readAllBytes(Paths.get(major(spec) >= 16 ? jfc16 : jfc)), StandardCharsets.UTF_8);
            long id = fr.newRecording();
            try {
                fr.setConfiguration(id, settings);
                Map<String, String> opts = new HashMap<>();
                opts.put("disk", "true");
                System.out.println("ready");
                System.out.flush();
                String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                if (line == null) {
                    return;
                }
                String[] when = line.trim().split(" ");
                long start = Long.parseLong(when[0]), stop = Long.parseLong(when[1]);
                opts.put("name", "regress-" + start);
                fr.setRecordingOptions(id, opts);
                sleepUntil(start);
                fr.startRecording(id);
                System.out.println("started " + System.currentTimeMillis());
                System.out.flush();
                sleepUntil(stop);
                fr.stopRecording(id);
                long stream = fr.openStream(id, null);
                try (OutputStream o = Files.newOutputStream(Paths.get(out))) {
                    byte[] b;
                    while ((b = fr.readStream(stream)) != null) {
                        o.write(b);
                    }
                } finally {
                    fr.closeStream(stream);
                }
            } finally {
                fr.closeRecording(id);
            }
        }
    }

    private static int major(String spec) {
        String s = spec.startsWith("1.") ? spec.substring(2) : spec;
        int i = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i == 0 ? 0 : Integer.parseInt(s.substring(0, i));
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long d = epochMs - System.currentTimeMillis();
        if (d > 0) {
            Thread.sleep(d);
        }
    }
}
