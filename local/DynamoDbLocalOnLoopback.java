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
  }
}
