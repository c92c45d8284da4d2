"""Finding the board by its USB ids."""

from firmware_bridge.ports import BOARD_IDS, PortInfo, UsbId, candidates


def test_boards_are_found_by_usb_ids_best_first() -> None:
    ports = [
        PortInfo("/dev/ttyUSB0", 0x1A86, 0x7523, "CH340"),
        PortInfo("/dev/ttyS0", None, None, "built-in"),
        PortInfo("/dev/ttyACM1", 0x2341, 0x0042, "Mega"),
        PortInfo("/dev/ttyACM0", 0x2341, 0x0042, "Mega"),
        PortInfo("/dev/ttyACM2", 0x0403, 0x6001, "FTDI, something else"),
    ]
    assert candidates(ports) == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyUSB0"]


def test_other_ids_can_be_given() -> None:
    ports = [PortInfo("/dev/ttyACM2", 0x0403, 0x6001, "FTDI")]
    assert candidates(ports) == []
    assert candidates(ports, [UsbId(0x0403, 0x6001, "FTDI board"), *BOARD_IDS]) == ["/dev/ttyACM2"]
