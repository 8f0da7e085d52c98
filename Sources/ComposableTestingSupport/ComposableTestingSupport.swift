// Linking this module into a test process is its whole job: IssueReporting finds the functions of
// IssueReportingTestSupport at run time and records every reported issue (a failed `TestStore`
// assertion, a feature's error) as a failure of the running test. Without it, on Linux, issues are
// only printed and the test passes. The ComposableTesting product brings it in.
import IssueReportingTestSupport
