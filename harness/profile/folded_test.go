package profile

import "testing"

// TestWithoutDropsTheMarkedStacks: a stack holding a marked frame anywhere
// goes with its weight; the rest stay as they were.
func TestWithoutDropsTheMarkedStacks(t *testing.T) {
	f := Folded{
		"Thread.run;JMXJsonServlet.doGet;regress.agent.RequestThreads.getRequestAllocatedBytes": 40,
		"Thread.run;JMXJsonServlet.doGet;JSONBean.write":                                        10,
		"Thread.run;RpcHandler.run;HRegion.get":                                                 500,
	}
	kept, removed := f.Without("regress.agent.", "JMXJsonServlet")
	if removed != 50 || len(kept) != 1 || kept["Thread.run;RpcHandler.run;HRegion.get"] != 500 {
		t.Errorf("Without: kept %v, removed %d; want the handler's stack alone and 50 removed", kept, removed)
	}
	if len(f) != 3 {
		t.Errorf("Without changed its input: %v", f)
	}
}
