"""Day One import keeps what the export says (issue 13, item 17): uuid, modifiedDate, the device, every
weather key; and the uuid recognises an entry already imported (the .json after the .zip)."""
import json
import zipfile

RECORD = {
    "uuid": "8C1F0A6E2B7D4C33", "creationDate": "2021-03-05T09:30:00Z", "modifiedDate": "2021-03-06T10:00:00Z",
    "timeZone": "Europe/Vienna", "text": "At the lake.\n\n![](dayone-moment://P1)\n",
    "creationDevice": "Ann's iPhone", "creationDeviceModel": "iPhone14,2", "creationDeviceType": "iPhone",
    "creationOSName": "iOS", "creationOSVersion": "17.1",
    "weather": {"conditionsDescription": "Sunny", "temperatureCelsius": 21, "relativeHumidity": 40,
                "windSpeedKPH": 7, "weatherCode": "clear", "weatherServiceName": "Forecast.io",
                "pressureMB": 1015, "visibilityKM": 16.1, "windBearing": 270, "moonPhase": 0.25,
                "moonPhaseCode": "first-quarter", "sunriseDate": "2021-03-05T05:20:00Z"},
    "photos": [{"identifier": "P1", "md5": "abc123", "type": "jpeg"}],
}


def export(tmp_path):
    folder = tmp_path / "dayone"
    (folder / "photos").mkdir(parents=True)
    (folder / "photos" / "abc123.jpeg").write_bytes(b"\xff\xd8")
    journal = folder / "Journal.json"
    journal.write_text(json.dumps({"entries": [RECORD]}))
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(journal, "Journal.json")
        z.write(folder / "photos" / "abc123.jpeg", "photos/abc123.jpeg")
    # The .json alone, without its photos: its links stay dayone-moment://, so its body differs.
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "Journal.json").write_text(journal.read_text())
    return archive, alone / "Journal.json"


def test_uuid_modified_device_and_every_weather_key_are_kept(diary, tmp_path):
    archive, _ = export(tmp_path)
    diary.ok("import", "dayone", archive)
    [entry] = diary.entries()
    text = entry.read_text()
    assert 'uuid: "8C1F0A6E2B7D4C33"\n' in text, text
    assert "modified: 2021-03-06T10:00:00Z" in text or "modified: '2021-03-06T10:00:00Z'" in text \
        or 'modified: "2021-03-06T10:00:00Z"' in text, text
    assert "device: {name: " in text and "model: iPhone14,2" in text.replace('"', "") and "os: iOS 17.1" in text, text
    for key in ["conditions: Sunny", "temperature_c: 21", "humidity: 40", "wind_kph: 7", "weather_code: clear",
                "weather_service_name: Forecast.io", "pressure_mb: 1015", "visibility_km: 16.1",
                "wind_bearing: 270", "moon_phase: 0.25", "moon_phase_code: first-quarter", "sunrise_date: "]:
        assert key in text, (key, text)
    assert diary.ok("check").rc == 0


def test_the_json_after_the_zip_adds_nothing(diary, tmp_path):
    archive, alone = export(tmp_path)
    diary.ok("import", "dayone", archive)
    r = diary.ok("import", "dayone", alone)
    assert "nothing new" in r.err and "1 already in the diary skipped" in r.err, r
    assert len(diary.entries()) == 1
    assert diary.commits() == 2
    # And the other way round, in a fresh diary: the zip after the json adds nothing either.
    other = tmp_path / "other"
    diary.ok("init", other)
    diary.ok("--diary", other, "import", "dayone", alone)
    r = diary.ok("--diary", other, "import", "dayone", archive)
    assert "nothing new" in r.err, r


def test_two_records_with_one_uuid_in_one_export_import_once(diary, tmp_path):
    j = tmp_path / "J.json"
    second = dict(RECORD, text="Edited later.", photos=[])
    j.write_text(json.dumps({"entries": [dict(RECORD, photos=[]), second]}))
    r = diary.ok("import", "dayone", j)
    assert len(diary.entries()) == 1 and "1 already in the diary skipped" in r.err, r
