// CSV quoting (RFC 4180) and how field values become cells.
import XCTest
@testable import DaybookCore

final class CSVExportTests: XCTestCase {
    func testPlainCellsStayBareAndTheRecordEndsInCRLF() {
        XCTAssertEqual(CSVExport.row(["a", "b c", ""]), "a,b c,\r\n")
    }

    func testCommasQuotesAndLineBreaksAreQuoted() {
        XCTAssertEqual(CSVExport.row(["a, b", "say \"hi\"", "two\nlines", "cr\r\nlf"]),
                       "\"a, b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\nlf\"\r\n")
    }

    func testUnicodeIsKeptAsUTF8() {
        XCTAssertEqual(CSVExport.row(["Grüße 🙂"]), "Grüße 🙂\r\n")
    }

    func testFieldValuesAsCells() {
        XCTAssertEqual(CSVExport.cell(.int(7)), "7")
        XCTAssertEqual(CSVExport.cell(.null), "")
        XCTAssertEqual(CSVExport.cell(.array([.string("a"), .int(2)])), "a;2")
        XCTAssertEqual(CSVExport.cell(.object([("lat", .double(48.2))])), "{\"lat\":48.2}")
    }
}
