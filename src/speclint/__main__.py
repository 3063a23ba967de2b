from speclint.runner.replay import main

main()
