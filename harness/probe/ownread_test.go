package probe

import (
	"testing"

	"github.com/regress-hbase/regress/harness/profile"
)

// TestOwnReadFramesLeaveOnlyTheServersWork: stacks of regress's readings
// (the agent through /jmx, the info server's request log around it, jcmd's
// JFR commands) leave a profile; a region server's request path stays.
// Stacks as the README's run of 2026-12-04 stored them.
func TestOwnReadFramesLeaveOnlyTheServersWork(t *testing.T) {
	rpc := "java.lang.Thread.run;org.apache.hadoop.hbase.ipc.RpcHandler.run;org.apache.hadoop.hbase.regionserver.RSRpcServices.get"
	f := profile.Folded{
		rpc: 1000,
		"java.lang.Thread.run;org.apache.hbase.thirdparty.org.eclipse.jetty.server.HttpChannel.handle;org.apache.hbase.thirdparty.org.eclipse.jetty.server.CustomRequestLog.log": 27,
		"jdk.jfr.internal.dcmd.AbstractDCmd.execute;jdk.jfr.internal.SettingsManager.setSettings":                                                                                37,
		"java.lang.Thread.run;org.apache.hadoop.hbase.http.jmx.JMXJsonServlet.doGet;regress.agent.Bean.get":                                                                      5,
	}
	kept, own := f.Without(ownReadFrames...)
	if own != 69 || len(kept) != 1 || kept[rpc] != 1000 {
		t.Fatalf("kept %v, own %d; want only the request path kept and 69 left out", kept, own)
	}
}
