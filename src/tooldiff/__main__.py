from tooldiff.cli import main

raise SystemExit(main())
