import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * DynamoDB Local, listening on 127.0.0.1 only. The jar has no option for the address: its server
 * (Jetty) listens on every interface, so anyone on the network could read and write the local
 * table, password hashes included, with any credentials. This starts the same server from the
 * same command line, and names the loopback address on its connector before it starts.
 *
 * It also ends with the process that started it: that process holds the other end of its standard
 * input, and end of input (the parent exited, however it exited) stops the server. Otherwise an
 * interrupted test run or a killed `npm start` leaves a JVM behind holding its memory and port.
 *
 * local/engines.ts runs it as a single-file source program (`java -cp <jar and libs> this file
 * <the jar's arguments>`), which needs the jdk.compiler module (Debian's JRE packages have it).
 */
public class DynamoDbLocalOnLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
    Thread watchdog = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // Nothing is ever sent: only the end of input matters.
        }
      } catch (java.io.IOException closed) {
        // A broken pipe is the same news as the end of input.
      }
      System.exit(0);
    }, "end-with-parent");
    watchdog.setDaemon(true);
    watchdog.start();
  }
}
